// The contracts between server and web: one module per concern, all re-exported here.
export * from './auth.js';
export * from './errors.js';
export * from './markets.js';
export * from './money.js';
export * from './settings.js';
