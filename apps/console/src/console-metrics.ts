import { metrics } from '@opentelemetry/api';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

/** `console.metrics` of the config file: the Prometheus endpoint, off unless asked for. */
export interface ConsoleMetricsConfig {
  /** Serve `GET /metrics` in the Prometheus text format. */
  readonly prometheus: boolean;
  /** The sha-256 (hex) of the bearer token a scraper off this machine presents; without it, loopback only. */
  readonly tokenSha256?: string;
}

/** The metrics SDK of a console that serves `/metrics`: the host's meter provider and its text. */
export interface ConsoleMetrics {
  /** Everything recorded so far, in the Prometheus text format. */
  text(): Promise<string>;
  close(): Promise<void>;
}

/**
 * Registers the global meter provider the host's metrics go to (before the host is created: the host listens only
 * when one is registered), read on demand by the `/metrics` route rather than by the exporter's own server. The SDK
 * is the console's dependency only: the library goes through `@opentelemetry/api`.
 */
export function startConsoleMetrics(): ConsoleMetrics {
  const reader = new PrometheusExporter({ preventServerStart: true });
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  const serializer = new PrometheusSerializer();
  return {
    text: async () => serializer.serialize((await reader.collect()).resourceMetrics),
    close: async () => {
      if (metrics.getMeterProvider() === provider) metrics.disable();
      await provider.shutdown();
    },
  };
}
