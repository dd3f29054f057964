import { customAlphabet } from 'nanoid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Short random base62 ids, made in the app rather than by the database: 20 characters, about 119 bits. */
export const newId: () => string = customAlphabet(BASE62, 20);

/** Secret part of API tokens: longer than ids because it is a credential. */
export const newSecret: () => string = customAlphabet(BASE62, 40);
