//! Sealed tournament reports (#80): a tournament run on another instance (a club's laptop,
//! offline) hands its result to a series in a form nobody can alter on the way. The report
//! is a JSON document as text (`payload`), its SHA-256 digest and the Ed25519 signature of
//! that digest by the instance's own key, with the public key beside it. Whoever holds the
//! file can check it; which keys a series trusts is the series' decision.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

pub const FORMAT: &str = "jassturnier-bericht/1";

/// A report as it travels (a file `….jassbericht.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SealedReport {
    pub format: String,
    /// The signing instance's public key (hex, 32 bytes).
    pub public_key: String,
    /// SHA-256 of the payload's bytes (hex).
    pub digest: String,
    /// Ed25519 signature of the digest's 32 bytes (hex).
    pub signature: String,
    /// The report itself, signed exactly as it stands.
    pub payload: String,
}

/// A report whose seal holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub public_key: [u8; 32],
    pub digest: String,
    pub payload: String,
}

/// Why a report is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SealError {
    NotAReport,
    UnknownFormat,
    /// The payload is not what was signed: changed on the way.
    Altered,
    BadSignature,
}

impl SealError {
    pub fn message(self) -> &'static str {
        match self {
            SealError::NotAReport => {
                "Das ist kein Turnierbericht (erwartet: eine Datei «….jassbericht.json»)."
            }
            SealError::UnknownFormat => {
                "Dieses Berichtsformat kennt diese Version nicht: bitte die Software aktualisieren."
            }
            SealError::Altered => {
                "Der Bericht wurde verändert: seine Prüfsumme stimmt nicht mehr. Bitte das Original anfordern."
            }
            SealError::BadSignature => {
                "Die Unterschrift des Berichts ist ungültig: er stammt nicht von der genannten Halle oder wurde verändert."
            }
        }
    }
}

/// The public key of a secret key.
pub fn public_key_of(secret: &[u8; 32]) -> [u8; 32] {
    SigningKey::from_bytes(secret).verifying_key().to_bytes()
}

/// A key as people compare it: the first 16 hex digits of its SHA-256, in groups of four
/// ("3f2a 91c0 7d4e b812").
pub fn fingerprint(public_key: &[u8; 32]) -> String {
    let hash = Sha256::digest(public_key);
    let hex = hex::encode(&hash[..8]);
    hex.as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// SHA-256 of a text, as hex.
pub fn digest_of(payload: &str) -> String {
    hex::encode(Sha256::digest(payload.as_bytes()))
}

/// Seals a payload with the instance's secret key.
pub fn seal(payload: String, secret: &[u8; 32]) -> SealedReport {
    let key = SigningKey::from_bytes(secret);
    let digest = Sha256::digest(payload.as_bytes());
    let signature = key.sign(&digest);
    SealedReport {
        format: FORMAT.to_string(),
        public_key: hex::encode(key.verifying_key().to_bytes()),
        digest: hex::encode(digest),
        signature: hex::encode(signature.to_bytes()),
        payload,
    }
}

/// Checks a report's seal: format, digest of the payload, signature of the digest.
pub fn open(text: &[u8]) -> Result<Opened, SealError> {
    let report: SealedReport = serde_json::from_slice(text).map_err(|_| SealError::NotAReport)?;
    if report.format != FORMAT {
        return Err(SealError::UnknownFormat);
    }
    let digest = Sha256::digest(report.payload.as_bytes());
    if hex::encode(digest) != report.digest.to_ascii_lowercase() {
        return Err(SealError::Altered);
    }
    let key_bytes: [u8; 32] = hex::decode(&report.public_key)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or(SealError::BadSignature)?;
    let signature_bytes: [u8; 64] = hex::decode(&report.signature)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or(SealError::BadSignature)?;
    let key = VerifyingKey::from_bytes(&key_bytes).map_err(|_| SealError::BadSignature)?;
    key.verify(&digest, &Signature::from_bytes(&signature_bytes))
        .map_err(|_| SealError::BadSignature)?;
    Ok(Opened {
        public_key: key_bytes,
        digest: hex::encode(digest),
        payload: report.payload,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: [u8; 32] = [7; 32];
    const OTHER: [u8; 32] = [9; 32];

    fn text(report: &SealedReport) -> Vec<u8> {
        serde_json::to_vec(report).unwrap()
    }

    #[test]
    fn a_sealed_report_opens_with_its_payload_and_key() {
        let report = seal("{\"punkte\": 4711}".into(), &SECRET);
        let opened = open(&text(&report)).unwrap();
        assert_eq!(opened.payload, "{\"punkte\": 4711}");
        assert_eq!(opened.public_key, public_key_of(&SECRET));
        assert_eq!(opened.digest, digest_of("{\"punkte\": 4711}"));
        assert_eq!(fingerprint(&opened.public_key).len(), 19);
        assert_ne!(
            fingerprint(&public_key_of(&SECRET)),
            fingerprint(&public_key_of(&OTHER))
        );
    }

    #[test]
    fn one_changed_point_or_another_key_is_refused() {
        let report = seal("{\"punkte\": 4711}".into(), &SECRET);
        // One point more in the payload: the digest no longer fits.
        let mut altered = report.clone();
        altered.payload = "{\"punkte\": 4712}".into();
        assert_eq!(open(&text(&altered)), Err(SealError::Altered));
        // The digest made to fit as well: the signature does not.
        altered.digest = digest_of(&altered.payload);
        assert_eq!(open(&text(&altered)), Err(SealError::BadSignature));
        // Another instance's key claimed for the same signature.
        let mut other = report.clone();
        other.public_key = hex::encode(public_key_of(&OTHER));
        assert_eq!(open(&text(&other)), Err(SealError::BadSignature));
        assert_eq!(open(b"kein json"), Err(SealError::NotAReport));
        let mut future = report;
        future.format = "jassturnier-bericht/9".into();
        assert_eq!(open(&text(&future)), Err(SealError::UnknownFormat));
    }
}
