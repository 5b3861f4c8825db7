/* var-test: a conformance test of the variable services (UEFI 2.10, section 8.2, and the
 * global variables of 3.3) that uses only the UEFI API, so it runs on ember-run and on
 * OVMF alike. The first word of its command line picks what it does:
 *   rules   (default) every rule, then ExitBootServices and the runtime rules; the
 *           outcome leaves through ResetSystem, and a summary is kept in VtRuntimeLog
 *   report  prints the runtime summary an earlier "rules" run stored, and checks what it
 *           wrote after ExitBootServices
 *   write   stores a set of non-volatile variables; read checks them in a later run;
 *   fresh   checks they are absent (a store that did not persist)
 *   tool-check  checks the variable tests/integration/test_variables.py set with
 *           ember-varstore */
#ifndef VAR_TEST_H
#define VAR_TEST_H

#include "../lib/app.h"
#include "../lib/check.h"

#define NBR                                                                                        \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define NB (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS)
#define BR (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)
#define BS EFI_VARIABLE_BOOTSERVICE_ACCESS
#define APPEND EFI_VARIABLE_APPEND_WRITE
#define HR EFI_VARIABLE_HARDWARE_ERROR_RECORD
#define TIME_AUTH EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS

/* Known differences of EDK II, which implements authenticated variables. */
#define EDK2_AUTH "EDK II answers EFI_INVALID_PARAMETER for the enhanced authenticated attribute"

extern EFI_GUID vt_guid;   /* the test's own variables */
extern EFI_GUID vt_guid2;  /* a second vendor */
extern EFI_GUID vt_global; /* EFI_GLOBAL_VARIABLE */
extern EFI_GUID vt_hwerr;  /* EFI_HARDWARE_ERROR_VARIABLE */

/* The runtime services, through the table the firmware gave. */
EFI_STATUS vt_set(const CHAR16 *name, EFI_GUID *guid, UINT32 attributes, UINTN size,
		  const void *data);
EFI_STATUS vt_get(const CHAR16 *name, EFI_GUID *guid, UINT32 *attributes, UINTN *size, void *data);
/* Whether the variable holds exactly these attributes and bytes. */
bool vt_holds(const CHAR16 *name, EFI_GUID *guid, UINT32 attributes, const void *data, UINTN size);
/* Whether GetVariable finds it at all. */
bool vt_exists(const CHAR16 *name, EFI_GUID *guid);
/* Deletes it if it exists (clean-up). */
void vt_remove(const CHAR16 *name, EFI_GUID *guid);
/* Counts the variables GetNextVariableName lists, and whether name/guid is among them. */
UINTN vt_enumerate(const CHAR16 *name, EFI_GUID *guid, bool *found);
/* Whether the platform keeps hardware error records (HwErrRecSupport is not 0; they are
 * optional, 8.2.3). */
bool vt_hwerr_supported(void);
/* A load option (EFI_LOAD_OPTION) for \EFI\ember\test.efi with a description; its size. */
UINTN vt_load_option(UINT8 *out, UINT32 attributes, const CHAR16 *description);

/* The modes (persist.c, runtime.c). */
void vt_write(void);
void vt_read(void);
void vt_fresh(void);
void vt_tool_check(void);
void vt_report(void);
/* Creates the runtime test variables and the post-ExitBootServices log; false on failure. */
bool vt_runtime_prepare(void);
/* ExitBootServices, the runtime checks, ResetSystem with the outcome. */
__attribute__((noreturn)) void vt_runtime_run(void);

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

#endif
