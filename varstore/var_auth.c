/* Time-based authenticated writes (UEFI 2.10, 8.2.6) and who may make them (32.3):
 * the EFI_VARIABLE_AUTHENTICATION_2 descriptor, the signed message, timestamps, the key
 * that must have signed each variable, private variables' signer, and the new value
 * (signature lists validated and merged on APPEND_WRITE). */
#define LOG_PREFIX "varstore: "
#include "var_internal.h"
#include "format.h"
#include <efi/image_authentication.h>
#include <ember/core/log.h>
#include <ember/lib/str.h>

/* svc->auth_mem: the signed message (then the signer's identity), the keys that may sign
 * (then the new value), the certificates taken from them. */
#define MSG_SIZE (VARSTORE_MAX_VARIABLE + 0x100u)
#define KEYS_AT MSG_SIZE
#define KEYS_SIZE (2 * VARSTORE_MAX_VARIABLE)
#define TRUSTED_AT (KEYS_AT + KEYS_SIZE)
#define MAX_TRUSTED 64
_Static_assert(TRUSTED_AT + MAX_TRUSTED * sizeof(struct pkcs7_blob) <= VAR_AUTH_MEM_SIZE,
	       "authenticated writes' memory");
_Static_assert(TRUSTED_AT % 8 == 0, "certificate array alignment");

/* Who may sign a variable's updates (32.3.1-32.3.4). */
enum auth_kind {
	AUTH_PK,      /* the current PK */
	AUTH_KEK,     /* PK */
	AUTH_DB,      /* KEK or PK: db, dbx, dbt, dbr, OsRecoveryOrder */
	AUTH_PRIVATE, /* anyone, but always the same signer */
};

/* An authenticated write, parsed. */
struct auth_update {
	enum auth_kind kind;
	bool siglist; /* the value is a chain of EFI_SIGNATURE_LISTs */
	struct pkcs7_blob p7;
	const UINT8 *payload;
	UINT32 payload_size;
	struct vs_auth_head old; /* the current variable's (zero when none) */
	struct vs_auth_head new;
};

static void classify(const struct set_request *r, struct auth_update *u)
{
	const struct var_rule *rule = var_rule_find(r->name, r->guid);
	bool global = guid_eq(r->guid, &efi_global_variable_guid);

	u->kind = AUTH_PRIVATE;
	if (rule && (rule->attributes & VAR_AT))
		u->kind = !global			? AUTH_DB
			  : !str16_cmp(r->name, u"PK")	? AUTH_PK
			  : !str16_cmp(r->name, u"KEK") ? AUTH_KEK
							: AUTH_DB;
	u->siglist = u->kind == AUTH_PK || u->kind == AUTH_KEK || (u->kind == AUTH_DB && !global);
}

/* 8.2.6: TimeStamp's Pad1, Nanosecond, TimeZone, Daylight and Pad2 are zero. */
static bool time_ok(const EFI_TIME *t)
{
	return !t->Pad1 && !t->Nanosecond && !t->TimeZone && !t->Daylight && !t->Pad2;
}

/* Reads the descriptor in front of the data; EFI_SECURITY_VIOLATION when it is not a
 * well-formed EFI_VARIABLE_AUTHENTICATION_2 (the AuthInfo fails validation, 8.2.3). */
static EFI_STATUS parse_descriptor(const struct set_request *r, struct auth_update *u)
{
	EFI_VARIABLE_AUTHENTICATION_2 d;
	UINT32 cert;

	if (r->size < sizeof(d)) {
		log_debug("an authenticated write of %u bytes has no descriptor\n", r->size);
		return EFI_SECURITY_VIOLATION;
	}
	mem_copy(&d, r->data, sizeof(d));
	cert = d.AuthInfo.Hdr.dwLength;
	if (cert < sizeof(d.AuthInfo) || cert > r->size - sizeof(EFI_TIME) ||
	    d.AuthInfo.Hdr.wRevision != WIN_CERT_REVISION_2_0 ||
	    d.AuthInfo.Hdr.wCertificateType != WIN_CERT_TYPE_EFI_GUID ||
	    !guid_eq(&d.AuthInfo.CertType, &efi_cert_type_pkcs7_guid)) {
		log_debug("an authenticated write's WIN_CERTIFICATE is malformed\n");
		return EFI_SECURITY_VIOLATION;
	}
	if (!time_ok(&d.TimeStamp)) {
		log_debug("an authenticated write's TimeStamp has non-zero fields\n");
		return EFI_SECURITY_VIOLATION;
	}
	u->new.timestamp = d.TimeStamp;
	u->p7 = (struct pkcs7_blob){r->data + sizeof(d), cert - sizeof(d.AuthInfo)};
	u->payload = r->data + sizeof(EFI_TIME) + cert;
	u->payload_size = r->size - (UINT32)sizeof(EFI_TIME) - cert;
	return EFI_SUCCESS;
}

/* Compares two timestamps (their date and time; the other fields are zero). */
static int time_cmp(const EFI_TIME *a, const EFI_TIME *b)
{
	const UINT32 x[] = {a->Year, a->Month, a->Day, a->Hour, a->Minute, a->Second};
	const UINT32 y[] = {b->Year, b->Month, b->Day, b->Hour, b->Minute, b->Second};

	for (UINT32 i = 0; i < ARRAY_SIZE(x); i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

static EFI_STATUS read_head(const struct set_request *r, struct vs_auth_head *h)
{
	mem_set(h, 0, sizeof(*h));
	if (!r->exists || r->current.head < sizeof(*h))
		return EFI_SUCCESS;
	if (EFI_ERROR(vstore_read_data(r->current.store, r->current.entry, 0, h, sizeof(*h))))
		return EFI_DEVICE_ERROR;
	return EFI_SUCCESS;
}

/* The signed message: VariableName (no terminator), VendorGuid, Attributes (as given),
 * TimeStamp, Data (8.2.6). Fits MSG_SIZE: name and data fit one variable. */
static struct pkcs7_blob build_message(struct var_service *svc, const struct set_request *r,
				       const struct auth_update *u)
{
	UINT32 attributes = r->attributes | (r->append ? VAR_APPEND : 0);
	UINT32 name = r->name_size - (UINT32)sizeof(CHAR16);
	UINT8 *m = svc->auth_mem;

	mem_copy(m, r->name, name);
	mem_copy(m + name, r->guid, sizeof(EFI_GUID));
	mem_copy(m + name + 16, &attributes, sizeof(attributes));
	mem_copy(m + name + 20, &u->new.timestamp, sizeof(EFI_TIME));
	mem_copy(m + name + 36, u->payload, u->payload_size);
	return (struct pkcs7_blob){m, name + 36 + u->payload_size};
}

/* Adds the X509 certificates of a key variable (PK, KEK) to the trusted ones. */
static EFI_STATUS add_keys(struct var_service *svc, const CHAR16 *name, UINT32 *used, UINT32 *count)
{
	struct pkcs7_blob *trusted = (struct pkcs7_blob *)(svc->auth_mem + TRUSTED_AT);
	UINT8 *keys = svc->auth_mem + KEYS_AT + *used;
	struct var_ref ref;

	if (!var_lookup(svc, name, var_name_size(name), &efi_global_variable_guid, &ref) ||
	    ref.data_size > KEYS_SIZE - *used)
		return EFI_SUCCESS;
	if (EFI_ERROR(vstore_read_data(ref.store, ref.entry, ref.head, keys, ref.data_size)))
		return EFI_DEVICE_ERROR;
	*count = var_siglist_x509(keys, ref.data_size, trusted, *count, MAX_TRUSTED);
	*used += ref.data_size;
	return EFI_SUCCESS;
}

/* SHA-256 of the signer's Common Name and its chain's top certificate's tbsCertificate
 * (8.2.6), which later writes of a private variable must match. */
static EFI_STATUS signer_identity(struct var_service *svc, const struct pkcs7_signer *signer,
				  UINT8 *digest)
{
	struct pkcs7_blob cn, tbs;
	UINT8 *m = svc->auth_mem; /* the message is verified: its room is free */

	if (!var_x509_common_name(signer->leaf, &cn) || !var_x509_tbs(signer->top, &tbs) ||
	    cn.size + tbs.size > MSG_SIZE) {
		log_debug("the signer's certificate is malformed\n");
		return EFI_SECURITY_VIOLATION;
	}
	mem_copy(m, cn.data, cn.size);
	mem_copy(m + cn.size, tbs.data, tbs.size);
	svc->digest(HASH_SHA256, m, cn.size + tbs.size, digest);
	return EFI_SUCCESS;
}

/* Checks the signature against the keys the variable requires. */
static EFI_STATUS authenticate(struct var_service *svc, const struct set_request *r,
			       struct auth_update *u)
{
	const struct pkcs7_blob *trusted = (const struct pkcs7_blob *)(svc->auth_mem + TRUSTED_AT);
	UINT32 used = 0, count = 0;
	struct pkcs7_signer signer;
	EFI_STATUS status = EFI_SUCCESS;

	/* Setup Mode: the policy variables are written without a signature check (32.3). */
	if (u->kind != AUTH_PRIVATE && !var_pk_enrolled(svc))
		return EFI_SUCCESS;
	if (u->kind == AUTH_DB)
		status = add_keys(svc, u"KEK", &used, &count);
	if (!EFI_ERROR(status) && u->kind != AUTH_PRIVATE)
		status = add_keys(svc, u"PK", &used, &count);
	if (EFI_ERROR(status))
		return status;
	if (u->kind != AUTH_PRIVATE && !count) {
		log_debug("no certificate may sign this variable\n");
		return EFI_SECURITY_VIOLATION;
	}
	status = svc->verify(u->p7, build_message(svc, r, u), trusted, count, &signer);
	if (EFI_ERROR(status)) {
		log_debug("an authenticated write's signature failed: %r\n", status);
		return EFI_SECURITY_VIOLATION;
	}
	if (u->kind != AUTH_PRIVATE)
		return EFI_SUCCESS;
	status = signer_identity(svc, &signer, u->new.signer);
	if (!EFI_ERROR(status) && r->exists &&
	    mem_cmp(u->new.signer, u->old.signer, sizeof(u->new.signer))) {
		log_debug("a private authenticated variable's signer changed\n");
		return EFI_SECURITY_VIOLATION;
	}
	return status;
}

/* The new data must be a valid signature list chain; PK holds one X509 certificate. */
static EFI_STATUS check_payload(const struct set_request *r, const struct auth_update *u)
{
	if (!u->siglist || !u->payload_size)
		return EFI_SUCCESS;
	if (!var_siglist_valid(u->payload, u->payload_size))
		return EFI_INVALID_PARAMETER;
	if (u->kind == AUTH_PK && (r->append || !var_siglist_one_x509(u->payload, u->payload_size)))
		return EFI_INVALID_PARAMETER;
	return EFI_SUCCESS;
}

/* Builds the record data (head, then the value) in the keys' room and stores it. */
static EFI_STATUS write_value(struct var_service *svc, const struct set_request *r,
			      struct auth_update *u)
{
	UINT8 *buf = svc->auth_mem + KEYS_AT, *value = buf + sizeof(struct vs_auth_head);
	UINT32 size = 0, cap = KEYS_SIZE - (UINT32)sizeof(struct vs_auth_head);

	if (r->append && r->exists) {
		/* 8.2.6: with APPEND_WRITE the stored timestamp becomes the later one. */
		if (time_cmp(&u->old.timestamp, &u->new.timestamp) > 0)
			u->new.timestamp = u->old.timestamp;
		size = r->current.data_size;
		if (EFI_ERROR(vstore_read_data(r->current.store, r->current.entry, r->current.head,
					       value, size)))
			return EFI_DEVICE_ERROR;
	}
	if (r->append && u->siglist) {
		if (!var_siglist_merge(value, &size, cap, u->payload, u->payload_size))
			return EFI_INVALID_PARAMETER;
	} else {
		mem_copy(value + size, u->payload, u->payload_size);
		size += u->payload_size;
	}
	mem_copy(buf, &u->new, sizeof(u->new));
	return var_store_record(svc, r, buf, (UINT32)sizeof(u->new) + size);
}

/* Deletes, appends or writes once the update is authenticated. */
static EFI_STATUS apply(struct var_service *svc, const struct set_request *r, struct auth_update *u)
{
	EFI_STATUS status;

	if (!u->payload_size && r->append)
		return EFI_SUCCESS; /* appending nothing changes nothing */
	if (!u->payload_size) {
		if (!r->exists)
			return EFI_NOT_FOUND;
		status = vstore_write(r->current.store, r->name, r->name_size, r->guid,
				      r->current.attributes, NULL, 0, false);
	} else
		status = write_value(svc, r, u);
	if (!EFI_ERROR(status) && u->kind == AUTH_PK)
		status = var_modes_update(svc);
	return status;
}

/* An authenticated variable written without the attribute: only deletion gets here (other
 * attributes are refused before); the policy variables answer as for other attributes. */
static EFI_STATUS refuse_plain(const struct auth_update *u)
{
	return u->kind == AUTH_PRIVATE ? EFI_WRITE_PROTECTED : EFI_INVALID_PARAMETER;
}

static EFI_STATUS check_request(struct var_service *svc, const struct set_request *r,
				const struct auth_update *u, bool firmware)
{
	const struct var_rule *rule = var_rule_find(r->name, r->guid);

	if (!(r->attributes & VAR_AT))
		return refuse_plain(u);
	if (!(r->attributes & VAR_BS))
		return EFI_INVALID_PARAMETER;
	if (rule ? rule->attributes != r->attributes : var_guid_is_reserved(r->guid))
		return EFI_INVALID_PARAMETER;
	/* At runtime, in virtual mode too: the crypto library takes its memory from
	 * crypto/arena.c, and SetVirtualAddressMap converts its static tables' pointers with
	 * the rest of the image's (docs/varstore.md). */
	if (!firmware && (!svc->verify || !svc->digest))
		return EFI_UNSUPPORTED;
	return EFI_SUCCESS;
}

EFI_STATUS var_auth_set(struct var_service *svc, struct set_request *r, bool firmware)
{
	struct auth_update u = {0};
	EFI_STATUS status;

	classify(r, &u);
	status = check_request(svc, r, &u, firmware);
	if (!EFI_ERROR(status))
		status = read_head(r, &u.old);
	if (EFI_ERROR(status))
		return status;
	if (firmware) {
		/* The firmware's own write (import, enrolment tools): the value as given. */
		u.new = u.old;
		if (r->timestamp)
			u.new.timestamp = *r->timestamp;
		u.payload = r->data;
		u.payload_size = r->size;
	} else {
		status = parse_descriptor(r, &u);
		if (EFI_ERROR(status))
			return status;
		if ((UINT64)r->name_size + sizeof(u.new) + u.payload_size > VARSTORE_MAX_VARIABLE)
			return EFI_INVALID_PARAMETER;
		if (!r->append && r->exists && time_cmp(&u.new.timestamp, &u.old.timestamp) <= 0) {
			log_debug("an authenticated write is not newer than the variable\n");
			return EFI_SECURITY_VIOLATION;
		}
		status = authenticate(svc, r, &u);
		if (EFI_ERROR(status))
			return status;
	}
	status = check_payload(r, &u);
	if (EFI_ERROR(status))
		return status;
	return apply(svc, r, &u);
}
