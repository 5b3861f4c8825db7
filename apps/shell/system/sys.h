/* Helpers shared by the shell's system commands (dh, devices, drivers, connect, memmap,
 * dmpstore, setvar, bcfg, pci ...): argument parsing for handles and GUIDs, hex dumps,
 * lists of handles and the driver-model relations between handles, read from the
 * firmware's open-protocol information. Everything here uses shell.h and the UEFI API. */
#ifndef SHELL_SYSTEM_SYS_H
#define SHELL_SYSTEM_SYS_H

#include "../shell.h"
#include <efi/protocol/component_name2.h>
#include <efi/protocol/driver_binding.h>
#include <efi/protocol/loaded_image.h>

/* ---- Words ---- */

/* A status in words for messages that are not about files ("not found" ...). */
const char *sys_status_text(EFI_STATUS status);

/* The handle a number names (hex, as dh prints it); on failure prints
 * "cmd: 'text' is not a handle number" and returns NULL. */
EFI_HANDLE sys_handle_arg(struct shell *sh, const char *cmd, const CHAR16 *text);

/* A GUID written in registry format (8-4-4-4-12 hex digits), or the name of one the shell
 * knows (sh_guid_name: "BlockIo", "GlobalVariable" ...). */
bool sys_parse_guid(struct shell *sh, const CHAR16 *text, EFI_GUID *out);

/* A handle's number in hex for listings ("1A"), or "none" for NULL; buf holds 20 bytes. */
const char *sys_hnum(struct shell *sh, EFI_HANDLE h, char buf[20]);

/* A number with thousands separators ("1,048,576") into buf (at least 27 bytes). */
const char *sys_commas(char *buf, UINT64 value);

/* Hex dump lines: indent spaces, the offset from base, 16 bytes with a '-' after the
 * eighth, and the printable characters between asterisks. */
void sys_hexdump(struct shell *sh, UINTN indent, UINT64 base, const void *data, UINTN size);

/* ---- Handle lists ---- */

struct sys_handles {
	EFI_HANDLE *h;
	UINTN count, cap;
};

/* Appends h unless it is already in the list; false when out of memory. */
bool sys_handles_add(struct sys_handles *l, EFI_HANDLE h);
bool sys_handles_has(const struct sys_handles *l, EFI_HANDLE h);
void sys_handles_free(struct sys_handles *l);
/* Every handle carrying the protocol (NULL: every handle), sorted by handle number. */
EFI_STATUS sys_handles_locate(struct shell *sh, const EFI_GUID *protocol, struct sys_handles *out);
/* Sorts a list by handle number (sh_handle_index). */
void sys_handles_sort(struct shell *sh, struct sys_handles *l);

/* ---- The driver model ---- */

/* One BY_DRIVER or BY_CHILD_CONTROLLER open of a protocol on owner. */
struct sys_open {
	EFI_HANDLE owner, agent, controller;
	UINT32 attributes;
};

/* The driver-model opens of every handle, read once per command. */
struct sys_db {
	struct sys_open *e;
	UINTN count, cap;
};

EFI_STATUS sys_db_load(struct shell *sh, struct sys_db *db);
void sys_db_free(struct sys_db *db);

/* Drivers (agent handles) that opened a protocol of ctrl BY_DRIVER: those managing it. */
void sys_managing_drivers(const struct sys_db *db, EFI_HANDLE ctrl, struct sys_handles *out);
/* Children a driver (NULL: any) created for ctrl: handles that opened one of ctrl's
 * protocols BY_CHILD_CONTROLLER. */
void sys_children(const struct sys_db *db, EFI_HANDLE ctrl, EFI_HANDLE driver,
		  struct sys_handles *out);
/* Controllers whose children include h. */
void sys_parents(const struct sys_db *db, EFI_HANDLE h, struct sys_handles *out);
/* Controllers a driver manages (it opened one of their protocols BY_DRIVER). */
void sys_driver_controllers(const struct sys_db *db, EFI_HANDLE driver, struct sys_handles *out);

/* The handle's protocol interface, or NULL. */
void *sys_protocol(EFI_HANDLE h, const EFI_GUID *guid);

/* A device's name: ComponentName2 (or ComponentName) of the driver managing it, or of
 * its parent's bus driver, else its device path text; allocated, NULL when none. */
CHAR16 *sys_device_name(struct shell *sh, const struct sys_db *db, EFI_HANDLE h);
/* A driver's name from its ComponentName2 (or ComponentName) protocol; allocated or NULL. */
CHAR16 *sys_driver_name(EFI_HANDLE driver);
/* The file an image was loaded from (its LoadedImage FilePath as text); allocated or NULL. */
CHAR16 *sys_image_name(struct shell *sh, EFI_HANDLE image);
/* Whether a driver offers configuration (DriverConfiguration/2) or diagnostics
 * (DriverDiagnostics/2) protocols. */
bool sys_driver_configurable(EFI_HANDLE driver);
bool sys_driver_diagnosable(EFI_HANDLE driver);

/* ---- Variables ---- */

/* Reads a variable into an allocated buffer (*data NULL when it is absent). */
EFI_STATUS sys_var_read(const CHAR16 *name, const EFI_GUID *guid, UINT32 *attributes, void **data,
			UINTN *size);
/* Walks every variable: fn gets its name and GUID; returning false stops the walk. */
EFI_STATUS sys_var_each(bool (*fn)(const CHAR16 *name, const EFI_GUID *guid, void *ctx), void *ctx);
/* "NV+BS+RT ..." for variable attributes into buf (at least 48 bytes). */
const char *sys_var_attributes(char *buf, UINT32 attributes);

#endif
