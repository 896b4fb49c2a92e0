import { Option } from 'commander';

export const dataDirOption = () => new Option('--data-dir <dir>', 'data directory (env PARAPH_DATA_DIR, default ./.paraph)');
