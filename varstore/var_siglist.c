/* EFI_SIGNATURE_LIST chains (UEFI 2.10, 32.4.1), the values of PK, KEK, db, dbx, dbt and
 * dbr: their validation, the X509 certificates that may sign updates, and the merge of
 * an APPEND_WRITE that adds only the signatures not yet present (8.2.6). */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include <efi/image_authentication.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

#define OWNER_SIZE ((UINT32)sizeof(EFI_GUID))
#define LIST_SIZE ((UINT32)sizeof(EFI_SIGNATURE_LIST))

/* A signature type Ember accepts, with the bytes of its signature after the owner (0:
 * any, an X509 certificate). GUIDs by value, so the table needs no conversion at
 * SetVirtualAddressMap. */
struct sig_type {
	EFI_GUID guid;
	UINT32 size;
};

static const struct sig_type sig_types[] = {
    {EFI_CERT_SHA1_GUID, 20},	     {EFI_CERT_SHA256_GUID, 32},
    {EFI_CERT_SHA384_GUID, 48},	     {EFI_CERT_SHA512_GUID, 64},
    {EFI_CERT_RSA2048_GUID, 256},    {EFI_CERT_X509_GUID, 0},
    {EFI_CERT_X509_SHA256_GUID, 48}, {EFI_CERT_X509_SHA384_GUID, 64},
    {EFI_CERT_X509_SHA512_GUID, 80},
};

/* A walk over a chain: the list last read and its entries. */
struct siglist_iter {
	const UINT8 *at;
	UINT32 left;
	EFI_SIGNATURE_LIST list;
	const UINT8 *entries; /* the first entry */
	UINT32 count;	      /* entries */
};

static bool list_type_ok(const EFI_SIGNATURE_LIST *l)
{
	for (UINT32 i = 0; i < ARRAY_SIZE(sig_types); i++) {
		if (!guid_eq(&l->SignatureType, &sig_types[i].guid))
			continue;
		if (l->SignatureHeaderSize)
			return false;
		return sig_types[i].size ? l->SignatureSize == OWNER_SIZE + sig_types[i].size
					 : l->SignatureSize > OWNER_SIZE;
	}
	return false;
}

/* Reads the next list: 1, or 0 at the end of the chain, or -1 when it is malformed. */
static int siglist_next(struct siglist_iter *it)
{
	EFI_SIGNATURE_LIST *l = &it->list;
	UINT32 body;

	if (!it->left)
		return 0;
	if (it->left < LIST_SIZE)
		return -1;
	mem_copy(l, it->at, LIST_SIZE);
	if (l->SignatureListSize > it->left || l->SignatureListSize < LIST_SIZE ||
	    l->SignatureHeaderSize > l->SignatureListSize - LIST_SIZE || !list_type_ok(l))
		return -1;
	body = l->SignatureListSize - LIST_SIZE - l->SignatureHeaderSize;
	if (!body || body % l->SignatureSize)
		return -1;
	it->entries = it->at + LIST_SIZE + l->SignatureHeaderSize;
	it->count = body / l->SignatureSize;
	it->at += l->SignatureListSize;
	it->left -= l->SignatureListSize;
	return 1;
}

bool var_siglist_valid(const UINT8 *data, UINT32 size)
{
	struct siglist_iter it = {.at = data, .left = size};
	int r;

	while ((r = siglist_next(&it)) > 0)
		;
	if (r < 0)
		log_debug("a signature list is malformed at byte %u\n", size - it.left);
	return r == 0;
}

bool var_siglist_one_x509(const UINT8 *data, UINT32 size)
{
	struct siglist_iter it = {.at = data, .left = size};

	return siglist_next(&it) > 0 && guid_eq(&it.list.SignatureType, &efi_cert_x509_guid) &&
	       it.count == 1 && siglist_next(&it) == 0;
}

UINT32 var_siglist_x509(const UINT8 *data, UINT32 size, struct pkcs7_blob *out, UINT32 count,
			UINT32 max)
{
	struct siglist_iter it = {.at = data, .left = size};

	while (siglist_next(&it) > 0) {
		if (!guid_eq(&it.list.SignatureType, &efi_cert_x509_guid))
			continue;
		for (UINT32 i = 0; i < it.count && count < max; i++) {
			const UINT8 *e = it.entries + i * it.list.SignatureSize;
			out[count++] =
			    (struct pkcs7_blob){e + OWNER_SIZE, it.list.SignatureSize - OWNER_SIZE};
		}
	}
	return count;
}

/* Whether the chain holds this EFI_SIGNATURE_DATA (owner and signature) in a list of the
 * same type. */
static bool siglist_has(const UINT8 *data, UINT32 size, const EFI_SIGNATURE_LIST *type,
			const UINT8 *entry)
{
	struct siglist_iter it = {.at = data, .left = size};

	while (siglist_next(&it) > 0) {
		if (!guid_eq(&it.list.SignatureType, &type->SignatureType) ||
		    it.list.SignatureSize != type->SignatureSize)
			continue;
		for (UINT32 i = 0; i < it.count; i++)
			if (!mem_cmp(it.entries + i * it.list.SignatureSize, entry,
				     type->SignatureSize))
				return true;
	}
	return false;
}

/* Appends to buf (at *size, room for cap) the entries of one list that old lacks. */
static bool merge_list(UINT8 *buf, UINT32 old_size, UINT32 *size, UINT32 cap,
		       const struct siglist_iter *add)
{
	const EFI_SIGNATURE_LIST *l = &add->list;
	UINT32 start = *size, head = LIST_SIZE + l->SignatureHeaderSize, added = 0;
	EFI_SIGNATURE_LIST out = *l;

	if (head > cap - start)
		return false;
	mem_copy(buf + start + LIST_SIZE, add->at - l->SignatureListSize + LIST_SIZE,
		 l->SignatureHeaderSize);
	*size += head;
	for (UINT32 i = 0; i < add->count; i++) {
		const UINT8 *e = add->entries + i * l->SignatureSize;
		if (siglist_has(buf, old_size, l, e))
			continue;
		if (l->SignatureSize > cap - *size)
			return false;
		mem_copy(buf + *size, e, l->SignatureSize);
		*size += l->SignatureSize;
		added++;
	}
	if (!added) {
		*size = start; /* every signature was there: no empty list */
		return true;
	}
	out.SignatureListSize = head + added * l->SignatureSize;
	mem_copy(buf + start, &out, LIST_SIZE);
	return true;
}

bool var_siglist_merge(UINT8 *buf, UINT32 *size, UINT32 cap, const UINT8 *add, UINT32 add_size)
{
	struct siglist_iter it = {.at = add, .left = add_size};
	UINT32 old_size = *size;
	int r;

	while ((r = siglist_next(&it)) > 0)
		if (!merge_list(buf, old_size, size, cap, &it))
			return false;
	return r == 0;
}
