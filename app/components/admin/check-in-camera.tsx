import { useCallback, useEffect, useRef, useState } from "react";
import { Video, X } from "~/components/icons";
import { Button } from "~/components/ui/button";

// The Barcode Detection API (Chrome on Android, Safari on iOS 17+, Chrome on macOS) is not in
// TypeScript's DOM library yet; this is the part we use.
type DetectedBarcode = { rawValue: string };
type BarcodeDetectorInstance = { detect(source: CanvasImageSource): Promise<DetectedBarcode[]> };
type BarcodeDetectorClass = {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats(): Promise<string[]>;
};

type Decoder = (video: HTMLVideoElement) => Promise<string | null>;

/** The browser's QR detector when it has one, else jsQR on canvas frames (loaded on demand). */
async function createDecoder(): Promise<Decoder> {
  const Native = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  if (Native && (await Native.getSupportedFormats()).includes("qr_code")) {
    const detector = new Native({ formats: ["qr_code"] });
    return async (video) => (await detector.detect(video))[0]?.rawValue ?? null;
  }
  const { default: jsQR } = await import("jsqr");
  const canvas = document.createElement("canvas");
  const context = canvas.getContext("2d", { willReadFrequently: true });
  return async (video) => {
    if (!context || !video.videoWidth) return null;
    // A phone camera's full frame is more than QR finding needs; 640 px wide keeps it quick.
    const scale = Math.min(1, 640 / video.videoWidth);
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    const image = context.getImageData(0, 0, canvas.width, canvas.height);
    return (
      jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" })?.data ?? null
    );
  };
}

/** A code just read is ignored while it stays in view and for this long after it leaves. */
const SAME_CODE_PAUSE_MS = 5000;
const FRAME_INTERVAL_MS = 150;

/**
 * The phone's camera as a QR scanner: a found code is handed to `onCode` once (the same code is
 * ignored while it stays in view and for a few seconds after, so a ticket held up to the camera
 * is not scanned twice in a row).
 */
export function CheckInCamera({ onCode }: { onCode: (code: string) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout>>(undefined);
  const lastRef = useRef<{ code: string; at: number } | null>(null);
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;
  const [state, setState] = useState<"off" | "starting" | "on">("off");
  const [problem, setProblem] = useState<string | null>(null);

  const stop = useCallback(() => {
    clearTimeout(timerRef.current);
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    setState("off");
  }, []);

  useEffect(() => stop, [stop]);

  async function start() {
    setProblem(null);
    if (!navigator.mediaDevices?.getUserMedia) {
      setProblem("This browser cannot use the camera here. Type the code or search by name.");
      return;
    }
    setState("starting");
    try {
      const stream = await navigator.mediaDevices.getUserMedia({
        video: { facingMode: { ideal: "environment" } },
        audio: false,
      });
      streamRef.current = stream;
      const video = videoRef.current;
      if (!video) return stop();
      video.srcObject = stream;
      await video.play();
      const decode = await createDecoder();
      setState("on");
      const tick = async () => {
        if (!streamRef.current) return;
        try {
          const code = (await decode(video))?.trim();
          const last = lastRef.current;
          const now = Date.now();
          if (code && last?.code === code && now - last.at < SAME_CODE_PAUSE_MS) {
            // Still in front of the camera: keep ignoring it until it has been away a while,
            // so a green "Checked in" never flips to amber "Already checked in" by itself.
            last.at = now;
          } else if (code) {
            lastRef.current = { code, at: now };
            onCodeRef.current(code);
          }
        } catch {
          // A frame that cannot be read (camera warming up) is skipped.
        }
        timerRef.current = setTimeout(tick, FRAME_INTERVAL_MS);
      };
      tick();
    } catch (error) {
      stop();
      const denied = error instanceof DOMException && error.name === "NotAllowedError";
      setProblem(
        denied
          ? "Camera permission was refused. Allow the camera for this site, or type the code or search by name."
          : "No camera could be started. Type the code or search by name.",
      );
    }
  }

  return (
    <div className="grid gap-3">
      {/* The preview; muted + playsInline so phones play it inline without a tap. */}
      <video
        ref={videoRef}
        muted
        playsInline
        aria-label="Camera preview"
        className={
          state === "off" ? "hidden" : "aspect-square w-full rounded-lg bg-black object-cover"
        }
      />
      {state === "off" ? (
        <Button type="button" variant="outline" className="h-11" onClick={start}>
          <Video aria-hidden />
          Scan with camera
        </Button>
      ) : (
        <Button type="button" variant="outline" className="h-11" onClick={stop}>
          <X aria-hidden />
          {state === "starting" ? "Starting camera..." : "Stop camera"}
        </Button>
      )}
      {problem ? <p className="text-sm text-destructive">{problem}</p> : null}
    </div>
  );
}
