// Word and character lists the demo composes plausible, clearly invented company names from.

import type { Rng } from './prng.js';

const CN_FIRST = [...'浦华招东长中海国平万格美恒云贵川江浙沪深京津广福皖鲁湘鄂豫冀宁厦青连渝金银新宏兴盛泰安康鑫隆瑞丰达通远航天信诚德正永昌宝利嘉明'];
const CN_SECOND = [...'发夏商方江信通泰安科润航船铁建化粮利地一尔康讯德迪源光电海峰岳山川林华盛元晨星辰宇邦联创恒达益祥和泽阳'];
const CN_SUFFIX = ['银行', '证券', '保险', '地产', '医药', '科技', '电子', '能源', '化工', '机械', '汽车', '食品', '酒业', '电力',
  '建设', '传媒', '通信', '材料', '环保', '物流', '航空', '钢铁', '水泥', '农业', '软件', '生物', '控股', '股份', '集团', '实业',
  '精工', '智能', '光电', '纺织', '家电', '重工', '矿业', '港口', '半导体', '新能源'];

const EN_HEAD = ['North', 'Blue', 'Silver', 'Summit', 'Iron', 'Clear', 'Bright', 'Apex', 'Pine', 'Harbor', 'Granite', 'Red', 'Star',
  'Eagle', 'Lake', 'River', 'Cedar', 'Sun', 'Quantum', 'Vertex', 'Golden', 'Pacific', 'Atlas', 'Nova', 'Crystal', 'Maple', 'Falcon',
  'Orion', 'Prairie', 'Coral', 'Echo', 'Stone', 'Liberty', 'Frontier', 'Beacon', 'Meridian', 'Keystone', 'Evergreen', 'Horizon', 'Delta'];
const EN_TAIL = ['wind', 'crest', 'field', 'gate', 'stone', 'bridge', 'point', 'view', 'wood', 'brook', 'line', 'way', 'ridge', 'core',
  'works', 'peak', 'light', 'haven', 'port', 'vale'];
const EN_SECTOR = ['Analytics', 'Therapeutics', 'Energy', 'Semiconductor', 'Financial', 'Foods', 'Motors', 'Software', 'Networks',
  'Biosciences', 'Industries', 'Retail', 'Media', 'Airlines', 'Pharmaceuticals', 'Materials', 'Robotics', 'Systems', 'Capital',
  'Logistics', 'Bancorp', 'Realty', 'Devices', 'Entertainment', 'Utilities'];
const EN_FORM = ['Inc.', 'Corp.', 'Holdings', 'Group', 'Co.', 'Ltd.', 'Inc.', 'Corp.'];

const HK_HEAD = ['Golden Dragon', 'Pacific Harbour', 'Jade', 'Lucky Star', 'Orient', 'Great Wall', 'Victoria', 'Kowloon', 'Pearl River',
  'Fortune', 'Everbright', 'Sino', 'Asia Pacific', 'Harbour City', 'Wing On', 'Tai Ping', 'Lotus', 'Phoenix', 'Silver Bay', 'Peak',
  'Dragon Gate', 'Eastern', 'Lion Rock', 'Tsing Yi', 'Repulse Bay'];
const HK_SECTOR = ['Holdings', 'Group', 'Properties', 'Technology', 'Bank', 'Energy', 'Pharmaceutical', 'Logistics', 'Entertainment',
  'Resources', 'Securities', 'Insurance', 'Motors', 'Retail', 'Telecom', 'Infrastructure', 'Foods', 'Healthcare'];

/** Draws names until one is new; `make` is retried, then made unique with a numeral. */
export function uniqueName(rng: Rng, taken: Set<string>, make: (rng: Rng) => string): string {
  for (let i = 0; i < 20; i++) {
    const name = make(rng);
    if (!taken.has(name)) return taken.add(name), name;
  }
  const base = make(rng);
  for (let n = 2; ; n++) if (!taken.has(base + n)) return taken.add(base + n), base + n;
}

/** A Chinese company name such as 浦发银行 or 华润新能源. */
export const chineseName = (rng: Rng): string => rng.pick(CN_FIRST) + rng.pick(CN_SECOND) + rng.pick(CN_SUFFIX);

/** An English company name such as "Northwind Analytics Inc.". */
export const englishName = (rng: Rng): string =>
  `${rng.pick(EN_HEAD)}${rng.pick(EN_TAIL)} ${rng.pick(EN_SECTOR)} ${rng.pick(EN_FORM)}`;

/** A Hong Kong company name: English ("Pearl River Properties") or Chinese (控股 style). */
export const hongKongName = (rng: Rng): string =>
  rng.chance(0.5) ? `${rng.pick(HK_HEAD)} ${rng.pick(HK_SECTOR)}` : rng.pick(CN_FIRST) + rng.pick(CN_SECOND) + rng.pick(['控股', '集团', '国际', '置业', '科技', '实业']);

/** Crypto base assets: ticker, name and a rough USD price level to start the walk from. */
export const CRYPTO_ASSETS: readonly (readonly [string, string, number])[] = [
  ['BTC', 'Bitcoin', 30000], ['ETH', 'Ethereum', 1800], ['BNB', 'BNB', 300], ['SOL', 'Solana', 60], ['XRP', 'XRP', 0.5],
  ['ADA', 'Cardano', 0.4], ['DOGE', 'Dogecoin', 0.08], ['DOT', 'Polkadot', 6], ['AVAX', 'Avalanche', 20], ['LINK', 'Chainlink', 10],
  ['LTC', 'Litecoin', 80], ['TRX', 'TRON', 0.1], ['ATOM', 'Cosmos', 9], ['XLM', 'Stellar', 0.12], ['ETC', 'Ethereum Classic', 20],
  ['BCH', 'Bitcoin Cash', 250], ['NEAR', 'NEAR Protocol', 3], ['UNI', 'Uniswap', 6], ['FIL', 'Filecoin', 5], ['APT', 'Aptos', 8],
  ['ARB', 'Arbitrum', 1.1], ['OP', 'Optimism', 1.6], ['ICP', 'Internet Computer', 5], ['HBAR', 'Hedera', 0.07], ['VET', 'VeChain', 0.02],
  ['ALGO', 'Algorand', 0.15], ['AAVE', 'Aave', 80], ['MKR', 'Maker', 1200], ['SAND', 'The Sandbox', 0.5], ['MANA', 'Decentraland', 0.45],
  ['AXS', 'Axie Infinity', 7], ['EOS', 'EOS', 0.8], ['XTZ', 'Tezos', 0.9], ['THETA', 'Theta Network', 1], ['EGLD', 'MultiversX', 40],
  ['FTM', 'Fantom', 0.3], ['GRT', 'The Graph', 0.12], ['CRV', 'Curve DAO', 0.7], ['SNX', 'Synthetix', 2.5], ['COMP', 'Compound', 50],
  ['ZEC', 'Zcash', 30], ['DASH', 'Dash', 35], ['NEO', 'Neo', 10], ['KSM', 'Kusama', 25], ['CHZ', 'Chiliz', 0.08],
  ['ENJ', 'Enjin Coin', 0.3], ['BAT', 'Basic Attention Token', 0.2], ['ZIL', 'Zilliqa', 0.02], ['IOTA', 'IOTA', 0.2], ['QTUM', 'Qtum', 2.8],
  ['ONE', 'Harmony', 0.015], ['RUNE', 'THORChain', 2], ['INJ', 'Injective', 15], ['SUI', 'Sui', 0.8], ['SEI', 'Sei', 0.25],
  ['TIA', 'Celestia', 8], ['PEPE', 'Pepe', 0.000002], ['SHIB', 'Shiba Inu', 0.000009], ['WAVES', 'Waves', 2], ['KAVA', 'Kava', 0.7],
];

/** Quote assets of the pairs, with their USD level (stablecoins at 1). */
export const CRYPTO_QUOTES: readonly (readonly [string, string, number])[] = [
  ['USDT', 'TetherUS', 1], ['BTC', 'Bitcoin', 30000], ['ETH', 'Ethereum', 1800],
];
