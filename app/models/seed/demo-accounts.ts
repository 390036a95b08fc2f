/** Demo accounts created with the embedded demo content (listed in the README). */
export const DEMO_PASSWORD = "Kongamano-demo-2026";

export const DEMO_ACCOUNTS = [
  { email: "admin@kongamano.org", name: "Amina Wanjiru", role: "admin" },
  { email: "editor@kongamano.org", name: "Daniel Otieno", role: "editor" },
  { email: "member@kongamano.org", name: "Grace Mutua", role: "user" },
] as const;
