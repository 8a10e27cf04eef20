-- The outbox is now sent (src/mail/outbox.ts): each row records its attempts,
-- the last error and the sender's message id once it went out.
ALTER TABLE outbox_emails ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE outbox_emails ADD COLUMN last_error TEXT;
ALTER TABLE outbox_emails ADD COLUMN message_id TEXT;
