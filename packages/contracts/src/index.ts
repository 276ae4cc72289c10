// The contracts between server and web: one module per concern, all re-exported here.
export * from './auth.js';
export * from './deposits.js';
export * from './errors.js';
export * from './marketData.js';
export * from './markets.js';
export * from './money.js';
export * from './realtime.js';
export * from './settings.js';
export * from './trading.js';
export * from './vouchers.js';
export * from './whitelist.js';
export * from './withdrawals.js';
