/* Ember's boot-services conformance application: helpers shared by the suites.
 *
 * Every suite file defines APP_TEST_SUITE and registers small tests with APP_TEST().
 * Tests leave the system as they found it: events closed, protocols uninstalled,
 * memory freed, TPL restored. Checks follow the UEFI 2.10 specification; where it
 * leaves a choice, only what every reasonable firmware does is asserted. */
#ifndef CONFORMANCE_H
#define CONFORMANCE_H

#include "../lib/app.h"
#include "../lib/check.h"
#include "../lib/devpath.h"

/* Private GUIDs for test protocols, event groups and vendor device-path nodes; each
 * suite uses its own slots so that no test sees another's leftovers. */
enum test_guid_slot {
	G_EVENT_GROUP = 0, /* 0-3: event groups */
	G_PROTO = 8,	   /* 8-23: protocol handler services */
	G_DRIVER = 24,	   /* 24-39: driver model */
	G_IMAGE = 40,	   /* 40-47: images */
	G_MISC = 48,	   /* 48-55: configuration tables */
	G_EBS = 56,	   /* 56-63: ExitBootServices */
	G_SLOTS = 64
};

/* A private GUID, distinct for each slot. */
EFI_GUID *tguid(unsigned slot);

/* The current TPL, found by raising to TPL_HIGH_LEVEL and restoring. */
EFI_TPL current_tpl(void);

/* EFI_EVENT_NOTIFY helpers: count_notify adds one to the UINTN its context points to. */
void EFIAPI count_notify(EFI_EVENT event, void *ctx);

/* A record of notification calls (which notify, at which TPL), for ordering checks. */
struct notify_log {
	UINTN count;
	struct {
		UINTN id;
		EFI_TPL tpl;
		EFI_EVENT event;
	} entry[16];
};

/* Context for log_notify: appends {id, current TPL, event} to log. */
struct log_ctx {
	struct notify_log *log;
	UINTN id;
};
void EFIAPI log_notify(EFI_EVENT event, void *ctx);

/* A memory map snapshot in a pool buffer. */
struct mmap {
	UINT8 *buf;
	UINTN cap; /* bytes allocated for buf */
	UINTN size, key, desc_size;
	UINT32 desc_version;
};

/* Takes a snapshot (allocating its buffer first); frees with mmap_free. */
EFI_STATUS mmap_get(struct mmap *m);
void mmap_free(struct mmap *m);
UINTN mmap_count(const struct mmap *m);
EFI_MEMORY_DESCRIPTOR *mmap_desc(const struct mmap *m, UINTN i);
/* The descriptor containing addr, or NULL. */
EFI_MEMORY_DESCRIPTOR *mmap_find(const struct mmap *m, UINT64 addr);
/* The memory type at addr according to a fresh map, or ~0u when not described. */
UINT32 memory_type_at(UINT64 addr);

/* Whether LocateHandleBuffer(ByProtocol, proto) (or AllHandles for NULL) lists h. */
bool handle_listed(EFI_HANDLE h, EFI_GUID *proto);
/* The number of handles carrying proto (AllHandles for NULL); 0 on NOT_FOUND. */
UINTN handle_count(EFI_GUID *proto);

/* Well-known GUIDs as modifiable objects (the services take non-const pointers). */
extern EFI_GUID guid_loaded_image;
extern EFI_GUID guid_loaded_image_dp;
extern EFI_GUID guid_device_path;
extern EFI_GUID guid_driver_binding;
extern EFI_GUID guid_simple_fs;
extern EFI_GUID guid_text_in;
extern EFI_GUID guid_text_in_ex;
extern EFI_GUID guid_text_out;

/* The application's entry point (main.c). */
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/* Creates the ExitBootServices probes and the post-ExitBootServices log (printing its
 * address); false if that failed. */
bool ebs_prepare(void);

/* Runs the ExitBootServices tests and powers off with the overall result as the reset
 * status (EFI_SUCCESS when nothing failed); never returns. */
__attribute__((noreturn)) void ebs_run_and_shutdown(void);

#endif
