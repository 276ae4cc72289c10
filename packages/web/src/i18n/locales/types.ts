/** The shape of a language's texts: the same keys as English, any wording. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
