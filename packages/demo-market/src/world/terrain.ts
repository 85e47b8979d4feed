// The elevation surface: a regional tilt (the Edwards Plateau in the west falling to the
// Blackland Prairie in the east), plus hills that grow west of a Balcones-like escarpment just
// west of the core. Hills are a handful of plane waves: smooth, unbounded (no grid to run off),
// with an exact gradient, so slope and aspect come from the same surface as elevation and the
// ridges the wind field favours are the crests of the same waves.

import type { Random } from '../random.js';

const WAVES = 6;

export interface TerrainSample {
  /** Metres above sea level, before the river valleys are cut in. */
  elevationM: number;
  /** Surface gradient, metres per metre, east and north components. */
  gradientEast: number;
  gradientNorth: number;
  /** Where the point sits between trough (-1) and crest (+1) of the hills. */
  ridge: number;
  /** 0 on the prairie, 1 in the hill country. */
  hilliness: number;
}

export class TerrainField {
  private readonly kx = new Float64Array(WAVES);
  private readonly ky = new Float64Array(WAVES);
  private readonly phase = new Float64Array(WAVES);
  private readonly amplitude = new Float64Array(WAVES);
  private readonly amplitudeSum: number;
  /** x (km) of the escarpment, where hills fade out eastwards. */
  private readonly escarpmentKm: number;
  private readonly sample: TerrainSample = { elevationM: 0, gradientEast: 0, gradientNorth: 0, ridge: 0, hilliness: 0 };

  constructor(random: Random) {
    let sum = 0;
    for (let i = 0; i < WAVES; i++) {
      const wavelengthKm = random.uniform(3, 16);
      const angle = random.uniform(0, Math.PI);
      const k = (2 * Math.PI) / wavelengthKm;
      this.kx[i] = k * Math.cos(angle);
      this.ky[i] = k * Math.sin(angle);
      this.phase[i] = random.uniform(0, 2 * Math.PI);
      this.amplitude[i] = random.uniform(10, 30);
      sum += this.amplitude[i];
    }
    this.amplitudeSum = sum;
    this.escarpmentKm = random.uniform(-6, -2);
  }

  /** Evaluates the surface at (x, y) km. The returned object is reused by the next call. */
  at(x: number, y: number): TerrainSample {
    // Regional tilt: ~320 m in the far west to ~80 m in the far east, steepest through the core.
    const tilt = Math.tanh(x / 80);
    const base = 200 - 120 * tilt;
    const baseGradientEast = (-120 * (1 - tilt * tilt)) / 80; // metres per km

    // Hilliness: a logistic step 4 km wide at the escarpment, with some relief left on the prairie.
    const step = 1 / (1 + Math.exp((x - this.escarpmentKm) / 4));
    const hilliness = 0.2 + 0.8 * step;
    const hillinessGradientEast = (-0.8 * step * (1 - step)) / 4;

    let hills = 0;
    let hillsEast = 0;
    let hillsNorth = 0;
    for (let i = 0; i < WAVES; i++) {
      const theta = this.kx[i] * x + this.ky[i] * y + this.phase[i];
      const a = this.amplitude[i];
      hills += a * Math.sin(theta);
      const slope = a * Math.cos(theta);
      hillsEast += slope * this.kx[i];
      hillsNorth += slope * this.ky[i];
    }

    const s = this.sample;
    s.elevationM = base + hilliness * hills;
    // Gradients above are per km; the sample reports metres per metre.
    s.gradientEast = (baseGradientEast + hilliness * hillsEast + hillinessGradientEast * hills) / 1000;
    s.gradientNorth = (hilliness * hillsNorth) / 1000;
    s.ridge = hills / this.amplitudeSum;
    s.hilliness = hilliness;
    return s;
  }
}
