/* The machine's event log and the measuring calls (include/ember/drivers/measure.h). The log
 * and the final events table are made on the first measurement (or the first call of the
 * TCG2 protocol) once the TPM has started (again should another TPM start), in EfiACPIMemoryNVS
 * pages: the OS reads the final events table after ExitBootServices, and the log stays where
 * GetEventLog said it was. */
#define LOG_PREFIX "measure: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/crypto/authenticode.h>
#include <ember/crypto/hash.h>
#include <ember/drivers/measure.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/protocol/tcg2.h>
#include "event_log.h"

/* Sizes as generous as OVMF's (64 KiB log, 32 KiB final events), doubled: four banks make
 * every record larger, and PCR 7's variables carry certificates. */
#define EVENT_LOG_SIZE (128u * 1024)
#define FINAL_EVENTS_SIZE (64u * 1024)
#define LEGACY_LOG_SIZE (64u * 1024)
#define LEGACY_HEADER 32 /* TCG_PCClientPCREvent before its event bytes */

static struct tcg_log machine_log;
static struct tcg_log final_log; /* the records after the final events table's header */
static struct tcg_legacy_log legacy_log;
static EFI_TCG2_FINAL_EVENTS_TABLE *final_table;
static struct tpm_device *log_tpm; /* the TPM the log was made for */
static bool log_failed, final_started;

static const enum hash_alg bank_hash[] = {HASH_SHA1, HASH_SHA256, HASH_SHA384, HASH_SHA512};

/* The image Secure Boot allowed last and its Authenticode SHA-256 (measure_image_sha256). */
static const void *known_image;
static UINTN known_size;
static UINT8 known_sha256[32];

static void *nvs_pages(UINT32 size)
{
	EFI_PHYSICAL_ADDRESS address;

	if (EFI_ERROR(
		mem_allocate_pages(AllocateAnyPages, EfiACPIMemoryNVS, size / 4096, &address)))
		return NULL;
	mem_set((void *)(uintptr_t)address, 0, size);
	return (void *)(uintptr_t)address;
}

/* The final events table holds TCG_PCR_EVENT2 records only: a tcg_log over the bytes after
 * its header, without the Spec ID event. */
static EFI_STATUS final_table_make(UINT32 banks)
{
	final_table = nvs_pages(FINAL_EVENTS_SIZE);
	if (!final_table)
		return EFI_OUT_OF_RESOURCES;
	final_table->Version = EFI_TCG2_FINAL_EVENTS_TABLE_VERSION;
	mem_set(&final_log, 0, sizeof(final_log));
	final_log.base = final_table->Event;
	final_log.size = FINAL_EVENTS_SIZE - sizeof(*final_table);
	final_log.banks = banks;
	return config_table_install(&efi_tcg2_final_events_table_guid, final_table);
}

static bool log_make(struct tpm_device *tpm)
{
	UINT32 banks = tcg_hashable_banks(tpm->active_banks);
	void *buffer;
	EFI_STATUS status;

	log_tpm = tpm;
	log_failed = final_started = false;
	buffer = nvs_pages(EVENT_LOG_SIZE);
	if (!buffer) {
		log_warn("no memory for the TPM event log\n");
		log_failed = true;
		return false;
	}
	status = tcg_log_init(&machine_log, buffer, EVENT_LOG_SIZE, banks);
	if (!EFI_ERROR(status))
		status = final_table_make(banks);
	if (EFI_ERROR(status)) {
		log_warn("TPM event log not made: %r\n", status);
		log_failed = true;
		return false;
	}
	/* Optional: without its memory, only the crypto-agile log is offered. */
	mem_set(&legacy_log, 0, sizeof(legacy_log));
	if (banks & TPM_BANK_SHA1) {
		legacy_log.base = nvs_pages(LEGACY_LOG_SIZE);
		legacy_log.size = legacy_log.base ? LEGACY_LOG_SIZE : 0;
	}
	return true;
}

struct tcg_log *event_log_get(void)
{
	struct tpm_device *tpm = tpm_get();

	/* A log belongs to the TPM it was started for (the unit tests start several). */
	if (tpm && tpm != log_tpm && !log_make(tpm))
		return NULL;
	if (!tpm || log_failed)
		return NULL;
	return &machine_log;
}

const struct tcg_legacy_log *event_log_legacy(void)
{
	return event_log_get() && legacy_log.base ? &legacy_log : NULL;
}

static void legacy_append(UINT32 pcr, UINT32 type, const UINT8 *sha1, const void *event,
			  UINT32 event_size)
{
	UINT8 *p = legacy_log.base + legacy_log.used;

	if (!legacy_log.base)
		return;
	if (legacy_log.truncated || event_size > legacy_log.size - LEGACY_HEADER ||
	    LEGACY_HEADER + event_size > legacy_log.size - legacy_log.used) {
		legacy_log.truncated = true;
		return;
	}
	mem_copy(p, &pcr, 4);
	mem_copy(p + 4, &type, 4);
	mem_copy(p + 8, sha1, 20);
	mem_copy(p + 28, &event_size, 4);
	mem_copy(p + LEGACY_HEADER, event, event_size);
	legacy_log.last_event = legacy_log.used;
	legacy_log.used += LEGACY_HEADER + event_size;
}

void event_log_final_start(void)
{
	final_started = true;
}

bool measure_enabled(void)
{
	return event_log_get() != NULL;
}

EFI_STATUS event_log_hash(UINT32 banks, const void *data, UINTN size, bool pe_image,
			  UINT8 digests[][TPM_DIGEST_MAX])
{
	mem_set(digests, 0, TPM_BANK_COUNT * TPM_DIGEST_MAX);
	for (UINT32 i = 0; i < 4; i++) {
		if (!(banks & (1u << i)))
			continue;
		if (!pe_image) {
			hash_buffer(bank_hash[i], data, size, digests[i]);
		} else if (EFI_ERROR(authenticode_digest(data, size, bank_hash[i], digests[i]))) {
			log_debug("no PE/COFF image to measure (%llu bytes)\n",
				  (unsigned long long)size);
			return EFI_UNSUPPORTED;
		}
	}
	return EFI_SUCCESS;
}

static EFI_STATUS log_append(UINT32 pcr, UINT32 type, const UINT8 digests[][TPM_DIGEST_MAX],
			     const void *event, UINT32 event_size)
{
	EFI_STATUS status = tcg_log_append(&machine_log, pcr, type, digests, event, event_size);

	legacy_append(pcr, type, digests[0], event, event_size);
	if (EFI_ERROR(status))
		log_debug("log full: event 0x%x for PCR %u not logged\n", type, pcr);
	if (!final_started)
		return status;
	if (!EFI_ERROR(tcg_log_append(&final_log, pcr, type, digests, event, event_size)))
		final_table->NumberOfEvents++;
	else
		log_debug("final events table full: event 0x%x not logged\n", type);
	return status;
}

EFI_STATUS event_log_record(UINT32 pcr, UINT32 type, const UINT8 digests[][TPM_DIGEST_MAX],
			    const void *event, UINT32 event_size, bool log_it)
{
	struct tcg_log *log = event_log_get();
	EFI_STATUS status = EFI_SUCCESS;

	if (!log)
		return EFI_NOT_READY;
	if (pcr >= TPM_PCR_COUNT)
		return EFI_INVALID_PARAMETER;
	/* EV_NO_ACTION events are informational: not extended, logged with zero digests (PFP
	 * 10.4.5), whatever digests the caller had. */
	if (type == EV_NO_ACTION) {
		static const UINT8 zero[TPM_BANK_COUNT][TPM_DIGEST_MAX];

		digests = zero;
	} else {
		status = tpm2_pcr_extend(tpm_get(), pcr, log->banks, digests);
	}
	if (EFI_ERROR(status)) {
		log_warn("PCR %u not extended: %r\n", pcr, status);
		return EFI_DEVICE_ERROR;
	}
	return log_it ? log_append(pcr, type, digests, event, event_size) : EFI_SUCCESS;
}

EFI_STATUS measure_data(UINT32 pcr, UINT32 event_type, const void *data, UINTN data_size,
			const void *event, UINT32 event_size)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	struct tcg_log *log = event_log_get();

	if (!log)
		return EFI_NOT_READY;
	if (event_type == EV_NO_ACTION)
		mem_set(digests, 0, sizeof(digests));
	else
		event_log_hash(log->banks, data, data_size, false, digests);
	return event_log_record(pcr, event_type, (const UINT8(*)[TPM_DIGEST_MAX])digests, event,
				event_size, true);
}

EFI_STATUS measure_pe_image(UINT32 pcr, UINT32 event_type, const void *image, UINTN image_size,
			    const void *event, UINT32 event_size)
{
	UINT8 digests[TPM_BANK_COUNT][TPM_DIGEST_MAX];
	struct tcg_log *log = event_log_get();
	EFI_STATUS status;
	bool known;

	if (!log)
		return EFI_NOT_READY;
	/* The SHA-256 bank from Secure Boot's check of this very buffer, when it made one. */
	known = image == known_image && image_size == known_size;
	measure_image_sha256(NULL, 0, NULL);
	status = event_log_hash(known ? log->banks & ~TPM_BANK_SHA256 : log->banks, image,
				image_size, true, digests);
	if (EFI_ERROR(status))
		return status;
	if (known && (log->banks & TPM_BANK_SHA256))
		mem_copy(digests[1], known_sha256, sizeof(known_sha256));
	return event_log_record(pcr, event_type, (const UINT8(*)[TPM_DIGEST_MAX])digests, event,
				event_size, true);
}

void measure_image_sha256(const void *file, UINTN size, const UINT8 *digest)
{
	known_image = file;
	known_size = file ? size : 0;
	if (file)
		mem_copy(known_sha256, digest, sizeof(known_sha256));
}

EFI_STATUS measure_digests(UINT32 pcr, UINT32 event_type, const UINT8 digests[][TPM_DIGEST_MAX],
			   const void *event, UINT32 event_size)
{
	return event_log_record(pcr, event_type, digests, event, event_size, true);
}
