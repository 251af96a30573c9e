//! Who may do what.

use std::fmt;
use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Turnierleitung: everything.
    Leitung,
    /// Turnierbüro: teams, draws, results.
    Buero,
    /// Kontrolleur: visas; reads everything, the Protokoll included.
    Kontrolleur,
}

/// The kinds of write the application knows, each allowed to a set of roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Permission {
    ManageUsers,
    ManageTournament,
    ManageTeams,
    Draw,
    EnterResults,
    /// Correcting a result that a Kontrolleur has already visaed.
    CorrectVisaedResults,
    Visa,
    Disqualify,
    ViewAudit,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Leitung, Role::Buero, Role::Kontrolleur];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Leitung => "leitung",
            Role::Buero => "buero",
            Role::Kontrolleur => "kontrolleur",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Role::Leitung => "Turnierleitung",
            Role::Buero => "Turnierbüro",
            Role::Kontrolleur => "Kontrolleur",
        }
    }

    /// Exactly a stored key (`leitung`, `buero`, `kontrolleur`), nothing else.
    pub fn from_key(key: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == key)
    }

    pub fn may(self, permission: Permission) -> bool {
        use Permission::*;
        match self {
            Role::Leitung => true,
            Role::Buero => matches!(permission, ManageTeams | Draw | EnterResults),
            // The Kontrolleur checks: he reads the Protokoll too (it has nothing to write).
            Role::Kontrolleur => matches!(permission, Visa | CorrectVisaedResults | ViewAudit),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Role {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_lowercase().as_str() {
            "leitung" => Ok(Role::Leitung),
            "buero" | "büro" => Ok(Role::Buero),
            "kontrolleur" => Ok(Role::Kontrolleur),
            other => Err(format!(
                "Unbekannte Rolle «{other}» (erlaubt: leitung, buero, kontrolleur)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip() {
        for role in Role::ALL {
            assert_eq!(role.as_str().parse::<Role>().unwrap(), role);
        }
        assert!("admin".parse::<Role>().is_err());
    }

    #[test]
    fn permissions_follow_the_roles() {
        assert!(Role::Leitung.may(Permission::ManageUsers));
        assert!(Role::Buero.may(Permission::EnterResults));
        assert!(!Role::Buero.may(Permission::Visa));
        assert!(!Role::Buero.may(Permission::CorrectVisaedResults));
        assert!(!Role::Buero.may(Permission::ManageTournament));
        assert!(Role::Kontrolleur.may(Permission::Visa));
        assert!(Role::Kontrolleur.may(Permission::CorrectVisaedResults));
        assert!(!Role::Kontrolleur.may(Permission::EnterResults));
        assert!(!Role::Kontrolleur.may(Permission::Disqualify));
        assert!(Role::Kontrolleur.may(Permission::ViewAudit));
        assert!(!Role::Buero.may(Permission::ViewAudit));
    }

    #[test]
    fn visaed_results_are_changed_only_by_kontrolleur_and_leitung() {
        use ResultWrite::*;
        for role in Role::ALL {
            let visaed = role.may_write_result(Correction { visaed: true }).is_ok();
            assert_eq!(visaed, role != Role::Buero, "{role}");
        }
        assert!(Role::Buero.may_write_result(New).is_ok());
        assert!(
            Role::Buero
                .may_write_result(Correction { visaed: false })
                .is_ok()
        );
        assert!(Role::Kontrolleur.may_write_result(New).is_err());
        // Unvisaed results are the Büro's: a Kontrolleur corrects what is visaed.
        assert!(
            Role::Kontrolleur
                .may_write_result(Correction { visaed: false })
                .is_err()
        );
        assert!(Role::Kontrolleur.may_change_results() && Role::Buero.may_change_results());
        assert!(
            Role::Buero
                .may_write_result(Correction { visaed: true })
                .unwrap_err()
                .contains("visiert")
        );
    }
}

/// The logged-in user on whose behalf something happens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub id: super::ids::UserId,
    pub username: String,
    pub role: Role,
}

impl Actor {
    pub fn may(&self, permission: Permission) -> bool {
        self.role.may(permission)
    }

    /// The one rule for writing a table's result; see [`Role::may_write_result`].
    pub fn may_write_result(&self, write: ResultWrite) -> Result<(), &'static str> {
        self.role.may_write_result(write)
    }

    pub fn may_change_results(&self) -> bool {
        self.role.may_change_results()
    }
}

/// A write to a table's result, as far as the role matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultWrite {
    /// A table without a result gets one.
    New,
    /// A stored result changes (typed correction, Tafel line, replacement).
    Correction { visaed: bool },
}

impl Role {
    /// Who enters and who corrects: the Büro enters and corrects what no Kontrolleur has
    /// visaed yet; a visaed result is changed only by a Kontrolleur or the Leitung (and the
    /// change removes its visas). Refused with the message for the user.
    pub fn may_write_result(self, write: ResultWrite) -> Result<(), &'static str> {
        let allowed = match write {
            ResultWrite::New => self.may(Permission::EnterResults),
            ResultWrite::Correction { visaed: false } => self.may(Permission::EnterResults),
            ResultWrite::Correction { visaed: true } => self.may(Permission::CorrectVisaedResults),
        };
        match (allowed, write) {
            (true, _) => Ok(()),
            (false, ResultWrite::Correction { visaed: true }) => Err(
                "Dieses Resultat ist visiert: korrigieren dürfen nur Turnierleitung und Kontrolleure.",
            ),
            (false, ResultWrite::Correction { visaed: false }) if self.may_change_results() => Err(
                "Dieses Resultat ist noch nicht visiert: erfassen und korrigieren ist Sache des Turnierbüros; Kontrolleure korrigieren visierte Resultate.",
            ),
            (false, _) => Err("Dafür fehlt Ihnen die Berechtigung."),
        }
    }

    /// Whether the role changes results at all (enters them, or corrects visaed ones): who
    /// sees the correction forms and Tafeln.
    pub fn may_change_results(self) -> bool {
        self.may(Permission::EnterResults) || self.may(Permission::CorrectVisaedResults)
    }
}
