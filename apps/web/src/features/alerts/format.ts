import {
  ALERT_METRIC_INFO,
  MSG_ALERTS,
  roleName,
  type TAlertMetric,
  type TAlertOp,
  type TAlertRule,
  type TAlertUnit,
} from '@tlprt/contract';
import { formatBytes, shortNumber } from '../../platform/units';

/** The unit shown beside a threshold input. */
export const UNIT_LABEL: Record<TAlertUnit, string> = {
  percent: MSG_ALERTS.unitPercent,
  bytes: MSG_ALERTS.unitBytes,
  ms: MSG_ALERTS.unitMs,
  viewers: MSG_ALERTS.unitViewers,
};

export const OP_WORD: Record<TAlertOp, string> = { above: MSG_ALERTS.opAbove, below: MSG_ALERTS.opBelow };

/** A metric's value (or threshold) in its unit: "40%", "1.5 GB", "850 ms", "12 viewers". Percentages
 *  are numbers of 0 to 100, as thresholds are. */
export function formatValue(metric: TAlertMetric, value: number): string {
  switch (ALERT_METRIC_INFO[metric].unit) {
    case 'percent':
      return `${shortNumber(value)}%`;
    case 'bytes':
      return formatBytes(value);
    case 'ms':
      return `${Math.round(value)} ms`;
    case 'viewers':
      return `${Math.round(value)} ${MSG_ALERTS.unitViewers}`;
  }
}

/** "P2P share below 40% over 5 min, ≥ 10 viewers". */
export const conditionText = (
  r: Pick<TAlertRule, 'metric' | 'op' | 'threshold' | 'windowMinutes' | 'minViewers'>,
) =>
  MSG_ALERTS.condition(
    ALERT_METRIC_INFO[r.metric].label,
    OP_WORD[r.op],
    formatValue(r.metric, r.threshold),
    r.windowMinutes,
    r.minViewers,
  );

/** The host a webhook posts to (the whole text when it is no URL). */
export function webhookHost(url: string): string {
  return URL.canParse(url) ? new URL(url).host : url;
}

/** "E-mail: Admin, Key master" and "Webhook: hooks.example.com", or the no-channel line. */
export function channelLines(r: Pick<TAlertRule, 'emailRoles' | 'webhookUrl'>): string[] {
  const lines: string[] = [];
  if (r.emailRoles.length > 0) lines.push(MSG_ALERTS.emailTo(r.emailRoles.map(roleName).join(', ')));
  if (r.webhookUrl) lines.push(MSG_ALERTS.webhookTo(webhookHost(r.webhookUrl)));
  return lines.length > 0 ? lines : [MSG_ALERTS.noChannels];
}
