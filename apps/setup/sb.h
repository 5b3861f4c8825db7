/* The Secure Boot backend of the setup screen (sb_keys.c): the state, and the
 * owner's changes to PK, KEK, db and dbx from files (DER or PEM certificates, .esl
 * signature lists, signed .auth updates), deletions, the default keys and Setup Mode. Writes of
 * unsigned keys go through EMBER_VARIABLE_OWNER_PROTOCOL, which only the firmware's own
 * setup program started at the console gets (docs/setup-settings.md); .auth files go through
 * SetVariable as an OS's update would. */
#ifndef APPS_SETUP_SB_H
#define APPS_SETUP_SB_H

#include "../lib/app.h"
#include <efi/protocol/simple_file_system.h>

enum sb_key { SB_PK, SB_KEK, SB_DB, SB_DBX, SB_KEYS };

struct sb_state {
	INT8 secure_boot;	 /* SecureBoot: 0, 1; -1: absent */
	INT8 setup_mode;	 /* SetupMode: 0, 1; -1: absent */
	INT8 audit_mode;	 /* AuditMode, -1: the firmware does not offer it (Ember) */
	INT8 deployed_mode;	 /* DeployedMode, likewise */
	UINT32 entries[SB_KEYS]; /* signatures in each database (0: none or absent) */
	bool defaults;		 /* the firmware has default keys (PKDefault ...) */
	bool owner;		 /* keys may be written without signatures now */
};

/* The variable's name ("PK", "KEK", "db", "dbx"). */
const CHAR16 *sb_key_name(enum sb_key key);

/* Reads the modes, the counts and what the owner may do now. */
EFI_STATUS sb_state_read(struct sb_state *state);

/* A database's whole value in a pool buffer (*data NULL and *size 0 when it is absent). */
EFI_STATUS sb_key_read(enum sb_key key, UINT8 **data, UINTN *size);

/* Enrolls a key file's bytes: a DER or PEM certificate (a list of one X509 entry) or an .esl
 * replaces PK and is added to KEK, db and dbx; an .auth goes through SetVariable (replace
 * first, then, if its signature was made for APPEND_WRITE, append). *why (when not NULL)
 * says in a short phrase why it failed. */
EFI_STATUS sb_enroll(enum sb_key key, const UINT8 *data, UINTN size, const char **why);
/* The same from the file path on the volume of handle volume. */
EFI_STATUS sb_enroll_file(enum sb_key key, EFI_HANDLE volume, const CHAR16 *path, const char **why);

/* Removes signature index (in the order sb_key_read's chain holds them) of a database. */
EFI_STATUS sb_delete_entry(enum sb_key key, UINT32 index, const char **why);
/* Deletes a whole database (PK: back to Setup Mode). */
EFI_STATUS sb_delete_key(enum sb_key key, const char **why);
/* Replaces PK, KEK, db and dbx with the firmware's defaults (PKDefault ...): dbx, db and
 * KEK first, PK last, so Secure Boot turns on only with the rest in place. */
EFI_STATUS sb_restore_defaults(const char **why);
/* Deletes PK: Setup Mode, Secure Boot off; the other keys stay. */
EFI_STATUS sb_setup_mode(const char **why);

#endif
