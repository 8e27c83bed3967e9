// Mailing a key's details (never its secret) to its organisation contact through nodemailer, when SMTP_URL is set.

import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import type { Plan, PlanName } from '../../engine/plans.js';

/** One outgoing message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail (a nodemailer SMTP transport in production, a recorder in tests). */
export interface KeyMailer {
  send(message: MailMessage): Promise<void>;
}

/** A mailer from SMTP_URL (e.g. `smtp://user:pass@mail.example:587`) and MAIL_FROM; null without SMTP_URL. */
export function mailerFromEnv(env: NodeJS.ProcessEnv = process.env): KeyMailer | null {
  const url = env.SMTP_URL;
  if (url === undefined || url === '') return null;
  const from = env.MAIL_FROM || 'market-data-service@localhost';
  // nodemailer loaded at the first mail, not at start (30 ms of imports most servers never need).
  let transport: Transporter | null = null;
  return {
    async send({ to, subject, text }) {
      transport ??= (createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer')).createTransport({
        url,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      });
      await transport.sendMail({ from, to, subject, text });
    },
  };
}

const figure = (n: number | null): string => (n === null ? 'unlimited' : n.toLocaleString('en-US'));

/**
 * The message about key `id`: id, plan, limits (`plan`: the key's plan in force) and how to
 * rotate. The key text is not an argument, so it cannot leak in.
 */
export function keyDetailsMessage(
  key: { id: string; plan: PlanName; org: string },
  plan: Plan,
  to: string,
): MailMessage {
  const text = [
    `Hello${key.org ? ` ${key.org}` : ''},`,
    '',
    'These are the details of your market-data API key.',
    '',
    `  Key id:            ${key.id}`,
    `  Plan:              ${plan.name}`,
    `  Requests a minute: ${figure(plan.rpm)}`,
    `  Rows a day:        ${figure(plan.dailyQuota)}`,
    `  Symbols a batch:   ${plan.batch}`,
    `  Rows a call:       ${plan.rowsPerCall}`,
    '',
    `Your key reads mdq_${key.id}_… and is sent in the X-API-Key header. For your safety this`,
    'message does not contain the key itself: it was shown once when it was created.',
    '',
    'To rotate it (if it is lost or may have leaked), ask the service operator to rotate key',
    `${key.id}: a new key is issued at once and the old one stops working.`,
  ].join('\n');
  return { to, subject: `Your market-data API key ${key.id} (${plan.name})`, text };
}
