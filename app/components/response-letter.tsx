/** An author's response letter to a round's reviews, folded under the round it came with. */
export function ResponseLetter({ text }: { text: string | null | undefined }) {
  if (!text) return null;
  return (
    <details>
      <summary className="cursor-pointer">Response letter</summary>
      <p className="mt-1 whitespace-pre-line break-words">{text}</p>
    </details>
  );
}
