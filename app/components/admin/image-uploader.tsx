import { useEffect, useId, useRef, useState } from "react";
import { ImageIcon, Trash2, Upload } from "~/components/icons";
import { Button } from "~/components/ui/button";
import { Progress } from "~/components/ui/progress";
import { MAX_IMAGE_BYTES } from "~/lib/constants";
import { toast } from "~/lib/notify";
import { cn } from "~/lib/utils";

export const ACCEPTED_IMAGE_TYPES = ["image/jpeg", "image/jpg", "image/png", "image/webp"];
const INVALID_TYPE = ["Invalid file type", "Please upload a JPG, PNG, or WEBP image"] as const;
const TOO_LARGE = ["File too large", "Please upload an image smaller than 5MB"] as const;

export function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The size that fits inside the bounds, scaled proportionally and never enlarged (spec §9). */
export function fitInside(width: number, height: number, maxWidth: number, maxHeight: number) {
  const scale = Math.min(1, maxWidth / width, maxHeight / height);
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** JPEG, PNG or WEBP by the file's first bytes (a PDF renamed .png is caught here). */
async function looksLikeImage(file: Blob) {
  const b = new Uint8Array(await file.slice(0, 12).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  return (
    (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) ||
    (b[0] === 0x89 && ascii(1, 4) === "PNG") ||
    (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP")
  );
}

type Resized = { blob: Blob; from: string; to: string } | null;

/** Scales an image larger than the bounds down in a canvas, re-encoded at `quality`. */
async function resizeIfNeeded(
  file: File,
  maxWidth: number,
  maxHeight: number,
  quality: number,
): Promise<Resized> {
  const bitmap = await createImageBitmap(file);
  try {
    const target = fitInside(bitmap.width, bitmap.height, maxWidth, maxHeight);
    if (target.width === bitmap.width && target.height === bitmap.height) return null;
    const canvas = document.createElement("canvas");
    canvas.width = target.width;
    canvas.height = target.height;
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.imageSmoothingQuality = "high";
    context.drawImage(bitmap, 0, 0, target.width, target.height);
    const type = file.type === "image/jpg" ? "image/jpeg" : file.type;
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
    if (!blob) return null;
    return {
      blob,
      from: `${bitmap.width}x${bitmap.height} (${formatBytes(file.size)})`,
      to: `${target.width}x${target.height} (${formatBytes(blob.size)})`,
    };
  } finally {
    bitmap.close();
  }
}

type UploadFailure = { title: string; message: string };

/** POSTs the bytes with upload progress (fetch cannot report it; XMLHttpRequest can). */
function uploadWithProgress(
  url: string,
  body: Blob,
  onProgress: (percent: number) => void,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.responseType = "json";
    xhr.setRequestHeader("Content-Type", body.type || "application/octet-stream");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress((event.loaded / event.total) * 100);
    };
    xhr.onload = () => {
      const response = xhr.response as { url?: string; error?: UploadFailure } | null;
      if (xhr.status >= 200 && xhr.status < 300 && response?.url) return resolve(response.url);
      reject(
        response?.error ?? {
          title: "Upload failed",
          message:
            xhr.status === 401 || xhr.status === 403
              ? "You do not have permission to upload files."
              : `The server answered ${xhr.status}. Please try again.`,
        },
      );
    };
    xhr.onerror = () =>
      reject({
        title: "Upload failed",
        message: "Network error. Please check your connection and try again.",
      });
    xhr.send(body);
  });
}

/**
 * Image field of the admin forms (spec §2.15, §5, §7): drag-and-drop or click (keyboard: the
 * file input is focusable), preview, remove; client checks of type and size, a canvas resize to
 * fit the bounds at quality 0.85, then an upload with a progress bar to POST /admin/uploads.
 * The stored image's URL is submitted with the form as the hidden input `name`.
 * The server checks everything again (type by content, size, re-encoding).
 */
export function ImageUploader({
  name = "imageUrl",
  label = "Image",
  defaultValue,
  uploadUrl = "/admin/uploads?kind=image",
  maxWidth = 1200,
  maxHeight = 630,
  quality = 0.85,
  recommendation = "Recommended: 1200x630px (16:9 ratio)",
  onChange,
}: {
  name?: string;
  label?: string;
  defaultValue?: string | null;
  uploadUrl?: string;
  maxWidth?: number;
  maxHeight?: number;
  quality?: number;
  recommendation?: string;
  onChange?: (url: string) => void;
}) {
  const inputId = useId();
  const notesId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [value, setValue] = useState(defaultValue ?? "");
  const [preview, setPreview] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [dragging, setDragging] = useState(false);
  const uploading = progress !== null;

  useEffect(() => {
    if (!preview) return;
    return () => URL.revokeObjectURL(preview);
  }, [preview]);

  function update(next: string) {
    setValue(next);
    onChange?.(next);
  }

  async function handleFile(file: File | undefined) {
    if (!file || uploading) return;
    if (!ACCEPTED_IMAGE_TYPES.includes(file.type)) {
      toast.error(INVALID_TYPE[0], { description: INVALID_TYPE[1] });
      return;
    }
    if (file.size > MAX_IMAGE_BYTES) {
      toast.error(TOO_LARGE[0], { description: TOO_LARGE[1] });
      return;
    }
    if (!(await looksLikeImage(file))) {
      toast.error(INVALID_TYPE[0], { description: INVALID_TYPE[1] });
      return;
    }
    let body: Blob = file;
    try {
      const resized = await resizeIfNeeded(file, maxWidth, maxHeight, quality);
      if (resized) {
        body = resized.blob;
        toast.info("Image Resized", { description: `From ${resized.from} to ${resized.to}.` });
      }
    } catch {
      toast.error(INVALID_TYPE[0], { description: INVALID_TYPE[1] });
      return;
    }
    setPreview(URL.createObjectURL(body));
    setProgress(0);
    try {
      const url = await uploadWithProgress(uploadUrl, body, setProgress);
      update(url);
      toast.success("Image uploaded successfully");
    } catch (error) {
      const failure = error as UploadFailure;
      const title =
        failure.title === INVALID_TYPE[0] || failure.title === TOO_LARGE[0]
          ? failure.title
          : "Upload failed";
      toast.error(title, { description: failure.message });
    } finally {
      setPreview(null);
      setProgress(null);
      if (inputRef.current) inputRef.current.value = "";
    }
  }

  const shown = preview ?? value;

  return (
    <div className="grid gap-2">
      <span className="text-sm leading-none font-medium" id={`${inputId}-label`}>
        {label}
      </span>
      <input type="hidden" name={name} value={value} />
      {shown ? (
        <div className="relative overflow-hidden rounded-lg border border-border bg-muted">
          <img
            src={shown}
            alt={`Preview of the ${label.toLowerCase()}`}
            className="aspect-[1200/630] w-full object-cover"
          />
          {!uploading ? (
            <Button
              type="button"
              variant="destructive"
              size="sm"
              className="absolute top-2 right-2"
              onClick={() => update("")}
            >
              <Trash2 aria-hidden />
              Remove image
            </Button>
          ) : null}
        </div>
      ) : (
        <label
          htmlFor={inputId}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            void handleFile(event.dataTransfer.files[0]);
          }}
          className={cn(
            "flex cursor-pointer flex-col items-center justify-center gap-2 rounded-lg border-2 border-dashed border-input px-6 py-10 text-center transition-colors focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-ring hover:bg-muted",
            dragging && "border-primary bg-accent",
          )}
        >
          {dragging ? (
            <Upload aria-hidden className="size-8 text-primary" />
          ) : (
            <ImageIcon aria-hidden className="size-8 text-slate-500" />
          )}
          <span className="text-sm font-medium">
            Drag and drop an image here, or click to choose a file
          </span>
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept=".jpg,.jpeg,.png,.webp,image/jpeg,image/png,image/webp"
            aria-labelledby={`${inputId}-label`}
            aria-describedby={notesId}
            className="sr-only"
            disabled={uploading}
            onChange={(event) => void handleFile(event.target.files?.[0])}
          />
        </label>
      )}
      {uploading ? (
        <div className="grid gap-1">
          <Progress value={progress} label="Upload progress" />
          <p className="text-xs text-muted-foreground" aria-live="polite">
            Uploading... {Math.round(progress)}%
          </p>
        </div>
      ) : null}
      <div id={notesId} className="grid gap-0.5 text-xs text-muted-foreground">
        <p>{recommendation}</p>
        <p>JPG, PNG, or WEBP (max 5MB)</p>
      </div>
    </div>
  );
}
