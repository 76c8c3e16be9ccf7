//! E-mail notifications over SMTP.

use lettre::{AsyncSmtpTransport, AsyncTransport as _, Message, Tokio1Executor, message::Mailbox};

/// Where notifications are sent from.
#[derive(Clone, Debug, PartialEq)]
pub struct SmtpSettings {
    pub host: String,
    pub port: u16,
    pub from: String,
}

impl SmtpSettings {
    /// From `host:port` and a sender address.
    pub fn parse(server: &str, from: &str) -> anyhow::Result<Self> {
        let (host, port) = server
            .rsplit_once(':')
            .ok_or_else(|| anyhow::anyhow!("the SMTP server must be host:port, not {server:?}"))?;
        let port = port
            .parse()
            .map_err(|_| anyhow::anyhow!("the SMTP port {port:?} is not a number"))?;
        from.parse::<Mailbox>()
            .map_err(|e| anyhow::anyhow!("the sender {from:?} is not an e-mail address: {e}"))?;
        Ok(Self {
            host: host.to_owned(),
            port,
            from: from.to_owned(),
        })
    }
}

/// Sends one plain-text message to every recipient. Invalid recipients are skipped (and named
/// in the error if none is valid).
pub async fn send(smtp: &SmtpSettings, to: &[String], subject: &str, body: &str) -> Result<(), String> {
    let from: Mailbox = smtp
        .from
        .parse()
        .map_err(|e| format!("invalid sender {}: {e}", smtp.from))?;
    let mut builder = Message::builder().from(from).subject(subject);
    let mut any = false;
    for addr in to {
        match addr.trim().parse::<Mailbox>() {
            Ok(mb) => {
                builder = builder.to(mb);
                any = true;
            }
            Err(e) => tracing::warn!(address = %addr, error = %e, "skipping an invalid recipient"),
        }
    }
    if !any {
        return Err(format!("no valid recipient in {to:?}"));
    }
    let message = builder.body(body.to_owned()).map_err(|e| e.to_string())?;
    // Plain SMTP (a relay on the cluster network or this machine); STARTTLS if offered.
    let transport = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&smtp.host)
        .port(smtp.port)
        .timeout(Some(std::time::Duration::from_secs(10)))
        .build();
    transport
        .send(message)
        .await
        .map(|_| ())
        .map_err(|e| format!("SMTP {}:{}: {e}", smtp.host, smtp.port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_host_port_and_sender() {
        let s = SmtpSettings::parse("mail.internal:2525", "ludis@acme.example").unwrap();
        assert_eq!((s.host.as_str(), s.port), ("mail.internal", 2525));
        assert!(SmtpSettings::parse("mail.internal", "a@b.c").is_err());
        assert!(SmtpSettings::parse("h:x", "a@b.c").is_err());
        assert!(SmtpSettings::parse("h:25", "not an address").is_err());
    }
}
