/**
 * The demo accounts created on first start when `DEV_TOOLS` is on (the default outside
 * production). The README names them. Their balances are credited by the engine host at first
 * start from `funding` (whole units of each asset), the same for both accounts so that either
 * can buy from the other.
 */
export interface DemoUserSeed {
  email: string;
  password: string;
  nickname: string;
  funding: Readonly<Record<string, string>>;
}

const funding: Readonly<Record<string, string>> = {
  BTC: '10',
  ETH: '200',
  USDT: '1000000',
  LTT: '1000000',
  USDC: '100000',
  BNB: '1000',
  TRX: '1000000',
  PLC: '100000',
  USDN: '100000',
  CNB: '1000000',
  EUR: '100000',
  USD: '100000',
};

export const demoUserSeeds: readonly DemoUserSeed[] = [
  { email: 'alice@example.com', password: 'Alice-demo-1', nickname: 'alice', funding },
  { email: 'bob@example.com', password: 'Bob-demo-1', nickname: 'bob', funding },
];
