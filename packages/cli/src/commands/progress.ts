/** A progress line at most every `everyMs`, for long operator commands (the output may be a socket). */
export function progressReporter(out: (line: string) => void, label: string, everyMs = 2000, unit = 'parcels') {
  const started = Date.now();
  let last = 0;
  return {
    update(count: number, fraction?: number, force = false) {
      const now = Date.now();
      if (!force && now - last < everyMs) return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? Math.round(count / seconds) : 0;
      const bar = fraction === undefined ? '' : `[${'#'.repeat(Math.round(fraction * 30)).padEnd(30, '.')}] ${(fraction * 100).toFixed(0).padStart(3)}% `;
      // The time left, from the share of the input read so far at the pace so far.
      const eta = fraction === undefined || fraction <= 0 || fraction >= 1 ? '' : `, ETA ${duration((seconds * (1 - fraction)) / fraction)}`;
      out(`${label} ${bar}${count.toLocaleString('en-US')} ${unit}, ${rate.toLocaleString('en-US')}/s, ${seconds.toFixed(1)} s${eta}`);
    },
  };
}

function duration(seconds: number): string {
  const rounded = Math.ceil(seconds);
  if (rounded < 60) return `${rounded} s`;
  const minutes = Math.floor(rounded / 60);
  if (minutes < 60) return `${minutes} min ${String(rounded % 60).padStart(2, '0')} s`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}
