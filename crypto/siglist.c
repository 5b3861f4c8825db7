#define LOG_PREFIX "siglist: "
/* EFI_SIGNATURE_LIST chains: the fixed sizes of UEFI 2.10 32.4.1's signature types and a
 * walk that never reads past the size it was given. */
#include <ember/core/log.h>
#include <ember/crypto/siglist.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>
#include <efi/image_authentication.h>

#define LIST_HEADER sizeof(EFI_SIGNATURE_LIST)
#define OWNER sizeof(EFI_GUID)
#define EFI_TIME_SIZE 16

/* Each type's GUID and SignatureSize (0: variable, as X.509 certificates are). */
static const struct {
	const EFI_GUID *guid;
	uint32_t size;
} types[] = {
    [SIGLIST_X509] = {&efi_cert_x509_guid, 0},
    [SIGLIST_SHA1] = {&efi_cert_sha1_guid, OWNER + 20},
    [SIGLIST_SHA256] = {&efi_cert_sha256_guid, OWNER + 32},
    [SIGLIST_SHA384] = {&efi_cert_sha384_guid, OWNER + 48},
    [SIGLIST_SHA512] = {&efi_cert_sha512_guid, OWNER + 64},
    [SIGLIST_RSA2048] = {&efi_cert_rsa2048_guid, OWNER + 256},
    [SIGLIST_X509_SHA256] = {&efi_cert_x509_sha256_guid, OWNER + 32 + EFI_TIME_SIZE},
    [SIGLIST_X509_SHA384] = {&efi_cert_x509_sha384_guid, OWNER + 48 + EFI_TIME_SIZE},
    [SIGLIST_X509_SHA512] = {&efi_cert_x509_sha512_guid, OWNER + 64 + EFI_TIME_SIZE},
};

const EFI_GUID *siglist_type_guid(enum siglist_type type)
{
	return type < SIGLIST_UNKNOWN ? types[type].guid : NULL;
}

static enum siglist_type type_of(const EFI_GUID *guid)
{
	for (size_t i = 0; i < SIGLIST_UNKNOWN; i++)
		if (guid_eq(types[i].guid, guid))
			return (enum siglist_type)i;
	return SIGLIST_UNKNOWN;
}

/* The header of the list at p (copied: the list may sit at any alignment). */
static EFI_SIGNATURE_LIST read_header(const uint8_t *p)
{
	EFI_SIGNATURE_LIST list;

	mem_copy(&list, p, sizeof(list));
	return list;
}

/* One list of left bytes at p: its sizes against each other and its type's. */
static bool check_list(const uint8_t *p, size_t left, bool allow_unknown)
{
	EFI_SIGNATURE_LIST list;
	enum siglist_type type;
	size_t body;

	if (left < LIST_HEADER)
		return false;
	list = read_header(p);
	if (list.SignatureListSize < LIST_HEADER || list.SignatureListSize > left ||
	    list.SignatureHeaderSize > list.SignatureListSize - LIST_HEADER ||
	    list.SignatureSize <= OWNER)
		return false;
	body = list.SignatureListSize - LIST_HEADER - list.SignatureHeaderSize;
	if (body == 0 || body % list.SignatureSize != 0)
		return false;
	type = type_of(&list.SignatureType);
	if (type == SIGLIST_UNKNOWN)
		return allow_unknown;
	/* The spec's types carry no list header. */
	if (list.SignatureHeaderSize != 0)
		return false;
	return types[type].size == 0 || list.SignatureSize == types[type].size;
}

EFI_STATUS siglist_check(const void *data, size_t size, bool allow_unknown)
{
	const uint8_t *p = data;

	if (size && !data)
		return EFI_INVALID_PARAMETER;
	while (size > 0) {
		if (!check_list(p, size, allow_unknown)) {
			log_debug("malformed signature list at offset %zu\n",
				  (size_t)(p - (const uint8_t *)data));
			return EFI_INVALID_PARAMETER;
		}
		size -= read_header(p).SignatureListSize;
		p += read_header(p).SignatureListSize;
	}
	return EFI_SUCCESS;
}

void siglist_begin(struct siglist_iter *it, const void *data, size_t size)
{
	mem_set(it, 0, sizeof(*it));
	it->next_list = data;
	it->lists_left = data ? size : 0;
}

/* Moves to the next list; false at the end or on a malformed list. */
static bool enter_list(struct siglist_iter *it)
{
	EFI_SIGNATURE_LIST list;

	if (!check_list(it->next_list, it->lists_left, true))
		return false;
	list = read_header(it->next_list);
	it->type_guid = list.SignatureType;
	it->type = type_of(&list.SignatureType);
	it->sig_size = list.SignatureSize;
	it->next_sig = it->next_list + LIST_HEADER + list.SignatureHeaderSize;
	it->sigs_left = list.SignatureListSize - LIST_HEADER - list.SignatureHeaderSize;
	it->next_list += list.SignatureListSize;
	it->lists_left -= list.SignatureListSize;
	return true;
}

EFI_STATUS siglist_next(struct siglist_iter *it, struct siglist_entry *entry)
{
	while (it->sigs_left == 0) {
		if (it->lists_left == 0)
			return EFI_NOT_FOUND;
		if (!enter_list(it)) {
			it->lists_left = 0;
			return EFI_INVALID_PARAMETER;
		}
	}
	entry->type = it->type;
	entry->type_guid = it->type_guid;
	mem_copy(&entry->owner, it->next_sig, OWNER);
	entry->data = it->next_sig + OWNER;
	entry->size = it->sig_size - OWNER;
	it->next_sig += it->sig_size;
	it->sigs_left -= it->sig_size;
	return EFI_SUCCESS;
}

bool siglist_contains(const void *data, size_t size, enum siglist_type type, const void *bytes,
		      size_t length)
{
	struct siglist_iter it;
	struct siglist_entry entry;

	siglist_begin(&it, data, size);
	while (siglist_next(&it, &entry) == EFI_SUCCESS) {
		/* An X509_SHA* entry is the digest then the time of revocation. */
		bool x509_hash = type == SIGLIST_X509_SHA256 || type == SIGLIST_X509_SHA384 ||
				 type == SIGLIST_X509_SHA512;
		bool sized = entry.size == length + (x509_hash ? EFI_TIME_SIZE : 0);

		if (entry.type == type && sized && mem_cmp(entry.data, bytes, length) == 0)
			return true;
	}
	return false;
}
