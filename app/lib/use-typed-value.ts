import { type ChangeEvent, useCallback, useState } from "react";

/**
 * The value of an input that its form shows as it is typed (the password meter, a button that
 * waits for both entries). The server's markup takes input before the form's code has arrived:
 * scripts load after the first paint, and the Sign Up form's code when its tab shows. React's
 * `onChange` never sees what was typed then, so the field's value is also read when React takes
 * the field over (`ref`).
 */
export function useTypedValue() {
  const [value, setValue] = useState("");
  const ref = useCallback((input: HTMLInputElement | null) => {
    if (input?.value) setValue(input.value);
  }, []);
  const onChange = useCallback(
    (event: ChangeEvent<HTMLInputElement>) => setValue(event.currentTarget.value),
    [],
  );
  return { value, setValue, inputProps: { ref, onChange } };
}
