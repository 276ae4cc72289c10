/**
 * The `redirect` query value when it is a path of this site, else null: never an absolute or
 * protocol-relative URL, which would make the sign-in page an open redirect.
 */
export function safeRedirectPath(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) {
    return null;
  }
  return value;
}
