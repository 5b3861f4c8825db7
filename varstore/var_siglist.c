/* The signature databases' values (UEFI 2.10, 32.4.1) as the variable services use them,
 * over crypto/'s EFI_SIGNATURE_LIST parser: validation, the X509 certificates that may
 * sign updates, and the merge of an APPEND_WRITE that adds only the signatures not yet
 * present (8.2.6). */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include <efi/image_authentication.h>
#include <ember/core/log.h>
#include <ember/crypto/siglist.h>
#include <ember/lib/str.h>

#define OWNER_SIZE ((UINT32)sizeof(EFI_GUID))
#define LIST_SIZE ((UINT32)sizeof(EFI_SIGNATURE_LIST))

bool var_siglist_valid(const UINT8 *data, UINT32 size)
{
	if (EFI_ERROR(siglist_check(data, size, false))) {
		log_debug("a signature list chain of %u bytes is malformed\n", size);
		return false;
	}
	return true;
}

bool var_siglist_one_x509(const UINT8 *data, UINT32 size)
{
	struct siglist_iter it;
	struct siglist_entry e;

	siglist_begin(&it, data, size);
	return !EFI_ERROR(siglist_next(&it, &e)) && e.type == SIGLIST_X509 &&
	       siglist_next(&it, &e) == EFI_NOT_FOUND;
}

UINT32 var_siglist_x509(const UINT8 *data, UINT32 size, struct pkcs7_blob *out, UINT32 count,
			UINT32 max)
{
	struct siglist_iter it;
	struct siglist_entry e;

	if (EFI_ERROR(siglist_check(data, size, false)))
		return count;
	siglist_begin(&it, data, size);
	while (count < max && !EFI_ERROR(siglist_next(&it, &e)))
		if (e.type == SIGLIST_X509)
			out[count++] = (struct pkcs7_blob){e.data, e.size};
	return count;
}

/* Whether the chain holds this EFI_SIGNATURE_DATA (type, owner and signature). */
static bool chain_has(const UINT8 *data, UINT32 size, const struct siglist_entry *want)
{
	struct siglist_iter it;
	struct siglist_entry e;

	siglist_begin(&it, data, size);
	while (!EFI_ERROR(siglist_next(&it, &e)))
		if (guid_eq(&e.type_guid, &want->type_guid) && e.size == want->size &&
		    guid_eq(&e.owner, &want->owner) && !mem_cmp(e.data, want->data, e.size))
			return true;
	return false;
}

/* The list being appended to buf: where its header is and what it holds. */
struct merge_list {
	UINT32 at; /* of its header in buf; 0 with count 0: none yet */
	UINT32 count;
	EFI_SIGNATURE_LIST header;
};

static void close_list(UINT8 *buf, struct merge_list *l)
{
	if (!l->count)
		return;
	l->header.SignatureListSize = LIST_SIZE + l->count * l->header.SignatureSize;
	mem_copy(buf + l->at, &l->header, LIST_SIZE);
	l->count = 0;
}

/* Appends one entry, in the open list when it is of the same type and size, else in a
 * new one. False when it does not fit cap. */
static bool append_entry(UINT8 *buf, UINT32 *size, UINT32 cap, struct merge_list *l,
			 const struct siglist_entry *e)
{
	UINT32 entry = OWNER_SIZE + (UINT32)e->size;
	bool same = l->count && guid_eq(&l->header.SignatureType, &e->type_guid) &&
		    l->header.SignatureSize == entry;

	if (!same) {
		close_list(buf, l);
		if (LIST_SIZE > cap - *size)
			return false;
		*l = (struct merge_list){*size, 0, {e->type_guid, 0, 0, entry}};
		*size += LIST_SIZE;
	}
	if (entry > cap - *size)
		return false;
	mem_copy(buf + *size, &e->owner, OWNER_SIZE);
	mem_copy(buf + *size + OWNER_SIZE, e->data, e->size);
	*size += entry;
	l->count++;
	return true;
}

bool var_siglist_merge(UINT8 *buf, UINT32 *size, UINT32 cap, const UINT8 *add, UINT32 add_size)
{
	UINT32 old_size = *size;
	struct merge_list list = {0};
	struct siglist_iter it;
	struct siglist_entry e;

	if (!var_siglist_valid(add, add_size) || *size > cap)
		return false;
	siglist_begin(&it, add, add_size);
	while (!EFI_ERROR(siglist_next(&it, &e))) {
		if (chain_has(buf, old_size, &e))
			continue;
		if (!append_entry(buf, size, cap, &list, &e))
			return false;
	}
	close_list(buf, &list);
	return true;
}
