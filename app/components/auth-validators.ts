import { parseWithZod } from "@conform-to/zod/v4";
import { ForgotPasswordSchema, SignInSchema, SignUpSchema } from "~/components/auth-schemas";

// Loaded by the /auth forms after hydration (see useDeferredValidation).
export const validateSignIn = (formData: FormData) =>
  parseWithZod(formData, { schema: SignInSchema });
export const validateSignUp = (formData: FormData) =>
  parseWithZod(formData, { schema: SignUpSchema });
export const validateForgotPassword = (formData: FormData) =>
  parseWithZod(formData, { schema: ForgotPasswordSchema });
