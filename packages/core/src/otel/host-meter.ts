import { createNoopMeter, metrics } from '@opentelemetry/api';
import type { Meter, MeterProvider } from '@opentelemetry/api';

/** The name the host's meter and tracer have: the instrumentation scope a backend shows. */
export const INSTRUMENTATION_NAME = '@airlock/core';

/**
 * The host's meter, or undefined while no meter provider is registered (an application registers one with an
 * OpenTelemetry metrics SDK): then nothing is timed or counted at all.
 */
export function hostMeter(provider: MeterProvider = metrics.getMeterProvider()): Meter | undefined {
  const meter = provider.getMeter(INSTRUMENTATION_NAME);
  return meter === createNoopMeter() ? undefined : meter;
}

/**
 * Instruments made once per registered meter provider: `make` runs again only when the global provider changes (an
 * application registers one after the host started, a test swaps its reader), so a call pays one identity check.
 */
export function perMeterProvider<T>(make: (meter: Meter) => T): () => T | undefined {
  let provider: MeterProvider | undefined;
  let made: T | undefined;
  return () => {
    const current = metrics.getMeterProvider();
    if (current !== provider) {
      provider = current;
      const meter = hostMeter(current);
      made = meter === undefined ? undefined : make(meter);
    }
    return made;
  };
}
