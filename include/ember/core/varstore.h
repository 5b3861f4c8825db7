/* UEFI variables (UEFI 2.10, section 8.2) over a power-loss-safe, log-structured store on
 * NOR flash (docs/varstore.md has the format and the recovery rules).
 *
 * Two layers, both free of libc and of the core (its log aside), so the same code runs in
 * the firmware, in ember-run, in the offline tool (ember-varstore), in unit tests and in
 * the fuzzer:
 *  - the store (vstore_*): one region of flash split into two areas, an append-only log of
 *    records in the active one, compaction into the other, an index in RAM;
 *  - the variable services (var_*): GetVariable, GetNextVariableName, SetVariable and
 *    QueryVariableInfo with the specification's semantics over a non-volatile store and a
 *    volatile one (a store on a RAM flash), the global variables' rules and validation.
 * Nothing here allocates: callers hand in memory sized by *_mem_size(). After
 * ExitBootServices nothing changes but the flash and that memory. */
#ifndef EMBER_VARSTORE_H
#define EMBER_VARSTORE_H

#include <stdbool.h>
#include <efi/runtime_services.h>
#include <ember/core/flash.h>
#include <ember/crypto/hash.h>
#include <ember/crypto/pkcs7.h>

/* Where a VARS template keeps the platform's default Secure Boot keys: NV+BS variables
 * named PKDefault, KEKDefault, dbDefault, dbxDefault, dbtDefault and dbrDefault under
 * this GUID, each a chain of EFI_SIGNATURE_LISTs. At each start the firmware publishes
 * them as the read-only global variables of the same names (UEFI 2.10 3.3). */
#define EMBER_SECURE_BOOT_DEFAULTS_GUID                                                            \
	EFI_GUID_INIT(0x7ac825ca, 0x088f, 0x4608, 0x90, 0xaf, 0x88, 0xad, 0xc8, 0x6a, 0x8c, 0xdf)

/* ---- The layout Ember uses on both platforms ---- */

/* The VARS region: two areas of 256 KiB in 4 KiB blocks (the QEMU VARS pflash holds
 * exactly these bytes; ember-run --vars FILE is such a file). */
#define VARSTORE_REGION_SIZE 0x80000u
#define VARSTORE_BLOCK_SIZE 0x1000u
/* The volatile store: a RAM flash of two 64 KiB areas. */
#define VARSTORE_VOLATILE_SIZE 0x20000u
/* The largest variable, name and data together, in bytes. */
#define VARSTORE_MAX_VARIABLE 0x8400u

/* ---- The store ---- */

/* An index entry: one live variable, found by hashing its name and GUID. */
struct vstore_entry {
	UINT32 offset;	  /* of its current record in the active area; 0: free entry */
	UINT32 hash;	  /* of name and GUID */
	UINT32 data_size; /* bytes of data */
	UINT16 name_size; /* bytes of name, with its terminator */
	UINT16 next;	  /* next entry in the hash chain (or the free list) */
	UINT8 attributes; /* EFI_VARIABLE_* as stored */
	UINT8 pad[3];
};

/* What mounting found (counts of records and bytes that did not make it). */
struct vstore_report {
	UINT32 damaged;	  /* complete records whose contents failed their CRC: skipped */
	UINT32 torn;	  /* records whose writing was interrupted: ignored */
	UINT32 garbage;	  /* 8-byte units holding neither records nor erased flash */
	UINT32 dropped;	  /* variables the index had no room for */
	UINT32 recovered; /* records found inside the space a torn or damaged record claimed */
	UINT32 unchecked; /* headers left unchecked there: the scan's reading budget ran out */
	bool formatted;	  /* the region was blank (erased) and has been formatted */
	bool reformatted; /* it could not be parsed and has been formatted: data lost */
};

/* One store on one flash region. Pointers: flash and mem only (see vstore_convert). */
struct vstore {
	struct flash_device *flash;
	UINT8 *mem;	      /* index entries, hash buckets, scratch buffer */
	UINT32 area_size;     /* half the region */
	UINT32 active;	      /* flash offset of the active area */
	UINT32 generation;    /* of the active area; compaction adds one */
	UINT32 tail;	      /* where the next record goes, within the active area */
	UINT32 live_bytes[2]; /* bytes of current records: [0] others, [1] hardware errors */
	UINT32 capacity;      /* index entries */
	UINT32 bucket_mask;   /* buckets - 1 (a power of two) */
	UINT32 free_head;     /* first free entry */
	UINT32 compactions;   /* since mounting (for tests and statistics) */
	struct vstore_report report;
};

#define VSTORE_NONE 0xffffu /* no entry */

/* Mount flags. */
/* Fail with EFI_VOLUME_CORRUPTED rather than format a region holding something
 * unparseable. */
#define VSTORE_NO_REFORMAT 0x1
/* The region is known to be erased (new RAM): format it without reading it first. */
#define VSTORE_ERASED 0x2

/* Writes into text (size bytes, always terminated when size > 0) one line, without a
 * newline, of what a mount lost or skipped that a user must know: damaged records,
 * unreadable bytes, records found again, a reformat. Interrupted writes lost nothing
 * committed and are left out. Returns the full length; 0: nothing to say. */
UINTN vstore_report_text(const struct vstore_report *r, char *text, UINTN size);

/* Memory needed to mount a region of flash_size bytes (8-byte aligned). */
UINTN vstore_mem_size(UINT32 flash_size);

/* Mounts the store on flash: picks the newest complete area, indexes its records (the
 * latest complete record of each variable wins; damaged and torn ones are skipped) and
 * finds where to append. A blank region is formatted; one that cannot be parsed is
 * formatted again unless VSTORE_NO_REFORMAT (s->report says which). The geometry must
 * split into two areas of whole blocks. */
EFI_STATUS vstore_mount(struct vstore *s, struct flash_device *flash, void *mem, UINTN mem_size,
			UINT32 flags);

/* The entry of name (name_size bytes with its terminator) and guid, or VSTORE_NONE. */
UINT32 vstore_find(struct vstore *s, const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid);

/* The entry at index i (i < capacity); offset 0 means unused. */
const struct vstore_entry *vstore_entry(const struct vstore *s, UINT32 i);

/* The first used entry at index >= from, or VSTORE_NONE. */
UINT32 vstore_next(const struct vstore *s, UINT32 from);

/* Reads an entry's GUID, its name (name_size bytes) or its data (size bytes at data
 * offset at). */
EFI_STATUS vstore_read_guid(struct vstore *s, UINT32 entry, EFI_GUID *guid);
EFI_STATUS vstore_read_name(struct vstore *s, UINT32 entry, CHAR16 *name);
EFI_STATUS vstore_read_data(struct vstore *s, UINT32 entry, UINT32 at, void *data, UINT32 size);

/* Writes a variable's new value: data (size bytes), after the current data when append;
 * size 0 without append deletes it. The record becomes the variable's value only once it
 * is completely on flash; until then the old value stands, even across a power loss.
 * Compacts when the active area is full; EFI_OUT_OF_RESOURCES when the live variables
 * would not fit even after compaction. attributes go to flash as given. */
EFI_STATUS vstore_write(struct vstore *s, const CHAR16 *name, UINT32 name_size,
			const EFI_GUID *guid, UINT32 attributes, const void *data, UINT32 size,
			bool append);

/* Copies the live records into the spare area and makes it the active one. */
EFI_STATUS vstore_compact(struct vstore *s);

/* Bytes a record of this name and data takes on flash. */
UINT32 vstore_record_size(UINT32 name_size, UINT32 data_size);
/* Bytes available to records in an area (its size less its header). */
UINT32 vstore_usable(const struct vstore *s);

/* Calls convert on each pointer the store keeps (for SetVirtualAddressMap). */
void vstore_convert(struct vstore *s, void (*convert)(void **pointer, void *ctx), void *ctx);

/* ---- The variable services ---- */

/* The cryptography of authenticated variables, as include/ember/crypto/ declares it
 * (pkcs7_verify, hash_buffer). The services call it through pointers the platform sets
 * (var_service_set_crypto), so the store links without it and tests can give doubles. */
typedef EFI_STATUS (*var_verify_fn)(struct pkcs7_blob p7, struct pkcs7_blob content,
				    const struct pkcs7_blob *trusted, size_t n_trusted,
				    struct pkcs7_signer *signer);
typedef void (*var_digest_fn)(enum hash_alg alg, const void *data, size_t size, uint8_t *digest);

/* Memory authenticated writes work in: the signed message, the keys that may sign, the
 * new value. */
#define VAR_AUTH_MEM_SIZE (3 * VARSTORE_MAX_VARIABLE + 0x1000u)

struct var_service {
	struct vstore nv;  /* EFI_VARIABLE_NON_VOLATILE variables */
	struct vstore vol; /* the others, in RAM */
	struct flash_ram vol_flash;
	bool at_runtime;      /* ExitBootServices happened: only RUNTIME_ACCESS variables exist */
	bool virtual_mode;    /* var_service_convert ran (SetVirtualAddressMap) */
	var_verify_fn verify; /* NULL: time-based authenticated writes are EFI_UNSUPPORTED */
	var_digest_fn digest;
	UINT8 *auth_mem; /* VAR_AUTH_MEM_SIZE bytes */
};

/* Memory for a service over a non-volatile region of nv_size bytes (the volatile
 * store's RAM included). */
UINTN var_service_mem_size(UINT32 nv_size);

/* Mounts the non-volatile store (flags as for vstore_mount; svc->nv.report says what it
 * found) and creates an empty volatile one. */
EFI_STATUS var_service_init(struct var_service *svc, struct flash_device *nv, void *mem,
			    UINTN mem_size, UINT32 flags);

/* Lets the services verify time-based authenticated writes (UEFI 2.10 8.2.6, 32.3). */
void var_service_set_crypto(struct var_service *svc, var_verify_fn verify, var_digest_fn digest);

/* The runtime services, with the specification's arguments and results (8.2). */
EFI_STATUS var_get(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
		   UINT32 *attributes, UINTN *data_size, void *data);
EFI_STATUS var_get_next(struct var_service *svc, UINTN *name_size, CHAR16 *name, EFI_GUID *guid);
EFI_STATUS var_set(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
		   UINT32 attributes, UINTN data_size, const void *data);
EFI_STATUS var_query(struct var_service *svc, UINT32 attributes, UINT64 *max_storage,
		     UINT64 *remaining, UINT64 *max_size);

/* SetVariable as the firmware itself: read-only variables and the rules for global
 * variables do not apply (the other checks do). */
EFI_STATUS var_set_firmware(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
			    UINT32 attributes, UINTN data_size, const void *data);
/* var_set_firmware of a time-based authenticated variable stamped with timestamp (an
 * enrolment tool's write; an append keeps the later of the two). */
EFI_STATUS var_set_firmware_at(struct var_service *svc, const CHAR16 *name, const EFI_GUID *guid,
			       UINT32 attributes, UINTN data_size, const void *data,
			       const EFI_TIME *timestamp);

/* Sets the firmware's global variables (PlatformLangCodes, SecureBoot ...) and gives the
 * non-volatile ones (PlatformLang, Lang, Timeout ...) their defaults when missing or
 * invalid. */
EFI_STATUS var_globals_install(struct var_service *svc);

/* Calls convert on each pointer the service keeps (for SetVirtualAddressMap). */
void var_service_convert(struct var_service *svc, void (*convert)(void **pointer, void *ctx),
			 void *ctx);

/* ---- The firmware's variable services (core/runtime/runtime_services.c) ---- */

/* Starts the runtime variable services over a platform's non-volatile flash (laid out as
 * VARSTORE_REGION_SIZE describes, or any even split into blocks): memory comes from
 * EfiRuntimeServicesData, the store is mounted (a warning on the log when it had to be
 * formatted again or records were damaged), the global variables are installed and the
 * EFI_RT_PROPERTIES_TABLE announces the variable services. Until then they return
 * EFI_UNSUPPORTED. */
EFI_STATUS variables_start(struct flash_device *nv);

/* What mounting the store found when the variable services started (NULL before). */
const struct vstore_report *variables_mount_report(void);

#endif
