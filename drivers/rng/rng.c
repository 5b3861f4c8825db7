/* EFI_RNG_PROTOCOL (UEFI 2.10, 37.5) over the entropy sources platforms and drivers add
 * (include/ember/drivers/rng.h says what each algorithm is). */
#define LOG_PREFIX "rng: "
#include <ember/lib/chacha20.h>
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/drivers/rng.h>
#include <ember/lib/str.h>
#include <ember/lib/util.h>
#include <ember/lib/guids.h>

#define SEED_BYTES 64

static const EFI_GUID chacha_guid = EMBER_RNG_ALGORITHM_CHACHA20;

static struct list sources = LIST_INIT(sources);
static UINT8 key[CHACHA20_KEY_SIZE];
static UINT64 requests; /* the nonce: never the same key and nonce twice */
static bool seeded;
static EFI_HANDLE rng_handle;

static bool have_hardware(void)
{
	struct rng_source *s;

	list_for_each_entry (s, &sources, link)
		if (s->hardware)
			return true;
	return false;
}

/* key = ChaCha20(key ^ material) (the first half of the block): each absorption is keyed
 * by all that came before. */
static void absorb(const UINT8 *material, UINTN size)
{
	static const UINT8 nonce[CHACHA20_NONCE_SIZE] = {'E', 'm', 'b', 'e', 'r',
							 'S', 'e', 'e', 'd'};
	UINT8 block[CHACHA20_BLOCK_SIZE];

	while (size) {
		UINTN n = MIN(size, (UINTN)CHACHA20_KEY_SIZE);
		for (UINTN i = 0; i < n; i++)
			key[i] ^= material[i];
		chacha20_block(key, 0, nonce, block);
		mem_copy(key, block, CHACHA20_KEY_SIZE);
		material += n;
		size -= n;
	}
	mem_set(block, 0, sizeof(block));
}

/* A source's bytes, when it delivers them. */
static void absorb_source(struct rng_source *s, UINT8 *material, UINTN size)
{
	EFI_STATUS status = s->read(s, material, size);

	if (EFI_ERROR(status)) {
		log_debug("source %s: %r\n", s->name, status);
		return;
	}
	absorb(material, size);
}

/* Fresh material: every source when seeding, the hardware ones on each request; the
 * clock always. */
static void reseed(bool all_sources)
{
	UINT8 material[SEED_BYTES];
	struct rng_source *s;
	UINT64 now = core_time_ns();

	absorb((const UINT8 *)&now, sizeof(now));
	list_for_each_entry (s, &sources, link)
		if (all_sources || s->hardware)
			absorb_source(s, material, sizeof(material));
	mem_set(material, 0, sizeof(material));
}

static void generate(UINT8 *out, UINTN size)
{
	UINT8 nonce[CHACHA20_NONCE_SIZE] = {0}, block[CHACHA20_BLOCK_SIZE];
	UINT32 counter = 1;

	if (!seeded) {
		EFI_TIME t;
		if (!EFI_ERROR(core_get_time(&t)))
			absorb((const UINT8 *)&t, sizeof(t));
		reseed(true);
		seeded = true;
	} else {
		reseed(false);
	}
	requests++;
	mem_copy(nonce, &requests, sizeof(requests));
	/* Block 0 is the next key: what this request returns cannot be computed again. */
	chacha20_block(key, 0, nonce, block);
	mem_copy(key, block, CHACHA20_KEY_SIZE);
	while (size) {
		UINTN n = MIN(size, (UINTN)CHACHA20_BLOCK_SIZE);
		chacha20_block(key, counter++, nonce, block);
		mem_copy(out, block, n);
		out += n;
		size -= n;
	}
	mem_set(block, 0, sizeof(block));
}

/* The hardware sources' bytes, in turn until one delivers. */
static EFI_STATUS read_raw(UINT8 *out, UINTN size)
{
	struct rng_source *s;

	list_for_each_entry (s, &sources, link) {
		EFI_STATUS status;
		if (!s->hardware)
			continue;
		status = s->read(s, out, size);
		if (!EFI_ERROR(status))
			return EFI_SUCCESS;
		log_debug("source %s: %r\n", s->name, status);
	}
	return EFI_DEVICE_ERROR;
}

static EFI_STATUS EFIAPI rng_get_info(EFI_RNG_PROTOCOL *this, UINTN *list_size,
				      EFI_RNG_ALGORITHM *list)
{
	UINTN count = have_hardware() ? 2 : 1, needed = count * sizeof(EFI_GUID);

	if (!this || !list_size)
		return EFI_INVALID_PARAMETER;
	if (*list_size < needed) {
		*list_size = needed;
		return EFI_BUFFER_TOO_SMALL;
	}
	if (!list)
		return EFI_INVALID_PARAMETER;
	/* The default first. */
	if (count == 2)
		list[0] = efi_rng_algorithm_raw_guid;
	list[count - 1] = chacha_guid;
	*list_size = needed;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI rng_get_rng(EFI_RNG_PROTOCOL *this, EFI_RNG_ALGORITHM *algorithm,
				     UINTN size, UINT8 *value)
{
	EFI_STATUS status;
	EFI_TPL old;

	if (!this || !value || !size)
		return EFI_INVALID_PARAMETER;
	old = tpl_raise(TPL_NOTIFY);
	if (algorithm ? guid_eq(algorithm, &efi_rng_algorithm_raw_guid) : have_hardware()) {
		status = have_hardware() ? read_raw(value, size) : EFI_UNSUPPORTED;
	} else if (!algorithm || guid_eq(algorithm, &chacha_guid)) {
		generate(value, size);
		status = EFI_SUCCESS;
	} else {
		status = EFI_UNSUPPORTED;
	}
	tpl_restore(old);
	return status;
}

static EFI_RNG_PROTOCOL rng_protocol = {rng_get_info, rng_get_rng};

EFI_STATUS rng_source_add(struct rng_source *source)
{
	EFI_STATUS status;

	/* The first source publishes the protocol; a source that failed is not kept (its
	 * owner frees it). */
	if (!rng_handle) {
		status = protocol_install(&rng_handle, &efi_rng_protocol_guid, &rng_protocol);
		if (EFI_ERROR(status)) {
			log_debug("installing the protocol: %r\n", status);
			rng_handle = NULL;
			return status;
		}
	}
	list_add_tail(&source->link, &sources);
	log_info("source %s (%s)\n", source->name, source->hardware ? "hardware" : "seed material");
	return EFI_SUCCESS;
}

void rng_source_remove(struct rng_source *source)
{
	list_del(&source->link);
}

EFI_STATUS rng_read_words(UINT8 *buffer, UINTN size, bool (*word)(uint64_t *value))
{
	while (size) {
		uint64_t v;
		UINTN n = MIN(size, (UINTN)sizeof(v));

		if (!word(&v))
			return EFI_DEVICE_ERROR;
		for (UINTN i = 0; i < n; i++)
			buffer[i] = (UINT8)(v >> (8 * i));
		buffer += n;
		size -= n;
	}
	return EFI_SUCCESS;
}
