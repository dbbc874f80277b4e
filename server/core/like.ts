/** `text` matched literally inside a LIKE pattern: `\`, `%` and `_` escaped (Prisma's `contains` leaves them wildcards). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
