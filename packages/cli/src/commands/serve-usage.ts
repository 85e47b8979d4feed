export const SERVE_USAGE = 'landscreen serve [--service <auth|discovery|pipeline|diligence|catalog> | --gateway | --worker | --runs-worker | --prepare-worker | --distributed]';
