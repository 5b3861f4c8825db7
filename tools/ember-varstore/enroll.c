/* ember-varstore's enroll: PK, KEK, db, dbx or dbt from certificates (DER or PEM),
 * EFI_SIGNATURE_LIST files, SHA-256 hashes, or one signed .auth update. Lists are written
 * as the firmware writes its own (var_set_firmware_at, stamped with the current time); an
 * .auth update goes through SetVariable's authenticated path, as an OS's would. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "tool.h"
#include <efi/image_authentication.h>
#include <ember/crypto/siglist.h>
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

#define AUTH_ATTRIBUTES                                                                            \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS |                             \
	 EFI_VARIABLE_RUNTIME_ACCESS | EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)

/* The owner of the entries Ember's tool makes unless --owner names one. */
static const EFI_GUID default_owner = {
    0x5d8e6a21, 0x4c3b, 0x4f0e, {0x9b, 0x61, 0x2e, 0x7d, 0x1a, 0x90, 0xc4, 0x53}};

/* The signature lists being built. */
struct chain {
	UINT8 *data;
	size_t size;
	unsigned certs, hashes, lists;
};

static void chain_add(struct chain *c, const void *bytes, size_t size)
{
	c->data = realloc(c->data, c->size + size);
	if (!c->data)
		exit(tool_error("out of memory"));
	memcpy(c->data + c->size, bytes, size);
	c->size += size;
}

/* Appends one list of one entry (owner, then data) of type. */
static void chain_add_entry(struct chain *c, const EFI_GUID *type, const EFI_GUID *owner,
			    const UINT8 *data, size_t size)
{
	EFI_SIGNATURE_LIST l = {*type, 0, 0, (UINT32)(sizeof(EFI_GUID) + size)};

	l.SignatureListSize = (UINT32)sizeof(l) + l.SignatureSize;
	chain_add(c, &l, sizeof(l));
	chain_add(c, owner, sizeof(*owner));
	chain_add(c, data, size);
}

static UINT8 *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	UINT8 *data = NULL;
	long length;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (length = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    length <= 16 * 1024 * 1024) {
		data = malloc((size_t)length + 1);
		if (data && fread(data, 1, (size_t)length, f) == (size_t)length) {
			data[length] = 0;
			*size = (size_t)length;
		} else {
			free(data);
			data = NULL;
		}
	}
	fclose(f);
	return data;
}

/* Every "CERTIFICATE" block of a PEM file; false when one is malformed or none. */
static bool add_pem(struct chain *c, const char *path, const char *text, const EFI_GUID *owner)
{
	static const char begin[] = "-----BEGIN CERTIFICATE-----",
			  end[] = "-----END CERTIFICATE-----";
	const char *p = text;
	unsigned found = 0;

	while ((p = strstr(p, begin))) {
		const char *body = p + sizeof(begin) - 1, *stop = strstr(body, end);
		UINT8 *der;
		long size;

		if (!stop)
			return tool_error("%s: a PEM certificate has no END line", path), false;
		der = malloc((size_t)(stop - body));
		size = der ? enroll_base64_decode(body, stop, der) : -1;
		if (size < 0 || !enroll_der_certificate(der, (size_t)size)) {
			free(der);
			return tool_error("%s: a PEM block is not an X.509 certificate", path),
			       false;
		}
		chain_add_entry(c, &efi_cert_x509_guid, owner, der, (size_t)size);
		c->certs++;
		found++;
		free(der);
		p = stop + sizeof(end) - 1;
	}
	if (!found)
		return tool_error("%s: no certificate in this PEM file", path), false;
	return true;
}

/* An EFI_VARIABLE_AUTHENTICATION_2 in front of the data (sign-efi-sig-list's output). */
static bool is_auth(const UINT8 *data, size_t size)
{
	const EFI_VARIABLE_AUTHENTICATION_2 *d = (const void *)data;

	return size >= sizeof(*d) && d->AuthInfo.Hdr.wCertificateType == WIN_CERT_TYPE_EFI_GUID &&
	       !memcmp(&d->AuthInfo.CertType, &efi_cert_type_pkcs7_guid, sizeof(EFI_GUID));
}

/* One input that is not an .auth: a hash, a PEM or DER certificate, or a signature list. */
static bool add_input(struct chain *c, const char *arg, const UINT8 *data, size_t size,
		      const EFI_GUID *owner, bool hashes_allowed, const char *var)
{
	UINT8 hash[32];

	if (!data) {
		if (!enroll_parse_sha256(arg, hash))
			return tool_error(
				   "%s: no such file, and not a SHA-256 hash (64 hex digits)", arg),
			       false;
		if (!hashes_allowed)
			return tool_error("%s holds certificates only: a hash cannot be enrolled "
					  "in it",
					  var),
			       false;
		chain_add_entry(c, &efi_cert_sha256_guid, owner, hash, sizeof(hash));
		c->hashes++;
		return true;
	}
	if (strstr((const char *)data, "-----BEGIN "))
		return add_pem(c, arg, (const char *)data, owner);
	if (enroll_der_certificate(data, size)) {
		chain_add_entry(c, &efi_cert_x509_guid, owner, data, size);
		c->certs++;
		return true;
	}
	if (size && siglist_check(data, size, false) == EFI_SUCCESS) {
		chain_add(c, data, size);
		c->lists++;
		return true;
	}
	return tool_error("%s: neither a certificate (DER or PEM) nor a valid "
			  "EFI_SIGNATURE_LIST file",
			  arg),
	       false;
}

static const EFI_GUID *variable_guid(const char *var)
{
	if (!strcmp(var, "PK") || !strcmp(var, "KEK"))
		return &efi_global_variable_guid;
	if (!strcmp(var, "db") || !strcmp(var, "dbx") || !strcmp(var, "dbt"))
		return &efi_image_security_database_guid;
	return NULL;
}

static EFI_TIME now_utc(void)
{
	time_t t = time(NULL);
	struct tm tm;
	EFI_TIME e = {0};

	gmtime_r(&t, &tm);
	e.Year = (UINT16)(tm.tm_year + 1900);
	e.Month = (UINT8)(tm.tm_mon + 1);
	e.Day = (UINT8)tm.tm_mday;
	e.Hour = (UINT8)tm.tm_hour;
	e.Minute = (UINT8)tm.tm_min;
	e.Second = (UINT8)tm.tm_sec;
	return e;
}

/* Why the firmware refused a write, in words. */
static const char *refusal_reason(EFI_STATUS status, const char *var, bool auth)
{
	if (status == EFI_SECURITY_VIOLATION)
		return auth ? "the update is not signed by a key allowed to sign it, its "
			      "signature is bad, or its timestamp is not newer (a replay)"
			    : "refused";
	if (status == EFI_INVALID_PARAMETER)
		return !strcmp(var, "PK") ? "PK holds exactly one X.509 certificate (no append)"
					  : "not a valid signature list for this variable";
	if (status == EFI_OUT_OF_RESOURCES)
		return "the variable store is full";
	return "refused";
}

static void report(struct tool_store *t, const char *var)
{
	UINTN size = 0;
	bool user_mode = var_get(&t->svc, u"PK", &efi_global_variable_guid, NULL, &size, NULL) ==
			 EFI_BUFFER_TOO_SMALL;

	printf("%s enrolled; the platform is in %s\n", var, user_mode ? "User Mode" : "Setup Mode");
}

/* enroll PK|KEK|db|dbx|dbt [--owner GUID] [--append] INPUT... */
int cmd_enroll(struct tool_store *t, int argc, char **argv)
{
	const char *var;
	const EFI_GUID *guid;
	EFI_GUID owner = default_owner;
	struct chain c = {0};
	bool append = false, auth = false;
	const char *inputs[argc > 0 ? argc : 1];
	int n = 0, status = 1;
	CHAR16 *name;
	EFI_STATUS efi;

	if (argc < 1)
		tool_usage_error("enroll needs PK, KEK, db, dbx or dbt");
	var = argv[0];
	guid = variable_guid(var);
	if (!guid)
		tool_usage_error("enroll: '%s' is not PK, KEK, db, dbx or dbt", var);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--append"))
			append = true;
		else if (!strcmp(argv[i], "--owner") && i + 1 < argc) {
			if (!parse_guid(argv[++i], &owner))
				tool_usage_error("bad owner GUID '%s'", argv[i]);
		} else if (argv[i][0] == '-' && argv[i][1])
			tool_usage_error("enroll: unknown option '%s'", argv[i]);
		else
			inputs[n++] = argv[i];
	}
	if (!n)
		tool_usage_error("enroll %s: give certificates, .esl or .auth files, or hashes",
				 var);
	name = name_from_utf8(var);
	for (int i = 0; i < n; i++) {
		struct stat st;
		size_t size = 0;
		UINT8 *data = stat(inputs[i], &st) == 0 ? read_file(inputs[i], &size) : NULL;

		if (!data && stat(inputs[i], &st) == 0) {
			tool_error("%s: cannot read it", inputs[i]);
			goto out;
		}
		if (data && is_auth(data, size)) {
			if (n != 1) {
				free(data);
				tool_error("%s: a signed .auth update is enrolled alone",
					   inputs[i]);
				goto out;
			}
			auth = true;
			efi = var_set(&t->svc, name, guid,
				      AUTH_ATTRIBUTES | (append ? EFI_VARIABLE_APPEND_WRITE : 0),
				      size, data);
			free(data);
			goto written;
		}
		if (!add_input(&c, inputs[i], data, size, &owner, !strncmp(var, "db", 2), var)) {
			free(data);
			goto out;
		}
		free(data);
	}
	{
		EFI_TIME stamp = now_utc();

		efi = var_set_firmware_at(
		    &t->svc, name, guid, AUTH_ATTRIBUTES | (append ? EFI_VARIABLE_APPEND_WRITE : 0),
		    c.size, c.data, &stamp);
	}
written:
	if (EFI_ERROR(efi)) {
		tool_error("enroll %s: %s (%s)", var, status_text(efi),
			   refusal_reason(efi, var, auth));
		goto out;
	}
	t->dirty = true;
	report(t, var);
	status = 0;
out:
	free(c.data);
	free(name);
	return status;
}
