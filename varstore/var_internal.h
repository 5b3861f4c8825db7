/* Shared by the variable services' files (varstore/var_*.c). */
#ifndef VARSTORE_VAR_INTERNAL_H
#define VARSTORE_VAR_INTERNAL_H

#include <ember/core/varstore.h>
#include <efi/global_variable.h>
#include <ember/lib/guids.h>

#define VAR_NV EFI_VARIABLE_NON_VOLATILE
#define VAR_BS EFI_VARIABLE_BOOTSERVICE_ACCESS
#define VAR_RT EFI_VARIABLE_RUNTIME_ACCESS
#define VAR_HR EFI_VARIABLE_HARDWARE_ERROR_RECORD
#define VAR_AT EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS
#define VAR_APPEND EFI_VARIABLE_APPEND_WRITE
#define VAR_ACCESS (VAR_BS | VAR_RT)
#define VAR_NBR (VAR_NV | VAR_BS | VAR_RT)
#define VAR_AUTH                                                                                   \
	(EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS |                                                 \
	 EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS |                                      \
	 EFI_VARIABLE_ENHANCED_AUTHENTICATED_ACCESS)
#define VAR_KNOWN (VAR_NBR | VAR_HR | VAR_AUTH | VAR_APPEND)

/* A variable found in one of the two stores. */
struct var_ref {
	struct vstore *store;
	UINT32 entry;
	UINT32 attributes;
	UINT32 data_size; /* of the value */
	UINT32 head;	  /* bytes in front of the value on flash (struct vs_auth_head) */
};

/* Bytes of name with its terminator; 0 when it is empty or longer than any variable. */
UINT32 var_name_size(const CHAR16 *name);
/* Finds a variable in either store, visible or not. */
bool var_lookup(struct var_service *svc, const CHAR16 *name, UINT32 name_size, const EFI_GUID *guid,
		struct var_ref *ref);
/* Whether a variable with these attributes exists for callers now (8.2: after
 * ExitBootServices only RUNTIME_ACCESS ones do). */
bool var_visible(const struct var_service *svc, UINT32 attributes);
/* Bytes the class of variables with these attributes may use in store, and use now. */
UINT32 var_class_capacity(const struct var_service *svc, const struct vstore *store,
			  UINT32 attributes);
UINT32 var_class_used(const struct vstore *store, UINT32 attributes);

/* ---- Rules for architecturally defined variables (var_rules.c, var_check.c) ---- */

enum var_check {
	VAR_CHECK_NONE,
	VAR_CHECK_UINT8,
	VAR_CHECK_UINT16,
	VAR_CHECK_UINT32,
	VAR_CHECK_UINT64,
	VAR_CHECK_UINT16_ARRAY,
	VAR_CHECK_LOAD_OPTION,
	VAR_CHECK_KEY_OPTION,
	VAR_CHECK_DEVICE_PATH,
	VAR_CHECK_PLATFORM_LANG,
	VAR_CHECK_LANG,
};

#define VAR_RULE_READ_ONLY 0x1 /* only the firmware writes it: EFI_WRITE_PROTECTED */
#define VAR_RULE_NUMBERED 0x2  /* name is a prefix followed by four upper-case hex digits */
#define VAR_RULE_NAME_MAX 28

/* An architecturally defined variable. Names are arrays, not pointers, so the table
 * needs no conversion at SetVirtualAddressMap. */
struct var_rule {
	CHAR16 name[VAR_RULE_NAME_MAX];
	UINT8 attributes; /* exactly these, as the specification lists them */
	UINT8 flags;
	UINT8 check; /* enum var_check */
};

/* The rule for name under guid, or NULL when the specification defines no such
 * variable (or guid is not one of the specification's). */
const struct var_rule *var_rule_find(const CHAR16 *name, const EFI_GUID *guid);
/* Whether guid is one under which only the specification's variables may exist. */
bool var_guid_is_reserved(const EFI_GUID *guid);
/* Whether name/guid is a hardware error record's (HwErrRec#### under its GUID). */
bool var_is_hwerr_key(const CHAR16 *name, const EFI_GUID *guid);
/* Whether name is prefix followed by exactly four upper-case hex digits. */
bool var_name_is_numbered(const CHAR16 *name, const CHAR16 *prefix);

/* Whether a write leaves a valid value: data (size bytes) is the whole value, or, when
 * appending to old_size bytes, its tail. */
bool var_check_value(struct var_service *svc, enum var_check check, const UINT8 *data, UINTN size,
		     UINTN old_size);
/* The individual checks, on a whole value. */
bool var_check_load_option(const UINT8 *data, UINTN size);
bool var_check_key_option(const UINT8 *data, UINTN size);
bool var_check_device_path(const UINT8 *data, UINTN size);

/* ---- Time-based authenticated variables (var_auth*.c, var_siglist.c, var_x509.c) ---- */

/* A SetVariable request, once its arguments are checked (var_set.c). */
struct set_request {
	const CHAR16 *name;
	UINT32 name_size;
	const EFI_GUID *guid;
	UINT32 attributes; /* without EFI_VARIABLE_APPEND_WRITE */
	bool append;
	const UINT8 *data;
	UINT32 size;
	bool exists;
	struct var_ref current; /* when exists */
};

/* SetVariable of a variable that is, or is to be, time-based authenticated: r->data is
 * an EFI_VARIABLE_AUTHENTICATION_2 descriptor and the new data (the firmware's own writes
 * give the value alone). */
EFI_STATUS var_auth_set(struct var_service *svc, struct set_request *r, bool firmware);
/* Writes a variable's whole new record data (rules and quota already checked). */
EFI_STATUS var_store_record(struct var_service *svc, const struct set_request *r, const UINT8 *data,
			    UINT32 size);
/* Whether a PK is enrolled (User Mode); false in Setup Mode. */
bool var_pk_enrolled(struct var_service *svc);
/* Publishes the template's default keys as PKDefault, KEKDefault ... (var_defaults.c). */
EFI_STATUS var_defaults_install(struct var_service *svc);
/* Sets SetupMode and SecureBoot from whether a PK is enrolled (32.3). */
EFI_STATUS var_modes_update(struct var_service *svc);

/* Whether data (size bytes) is a well-formed chain of EFI_SIGNATURE_LISTs of the types
 * Ember knows, each entry the size its type requires (an empty chain is). */
bool var_siglist_valid(const UINT8 *data, UINT32 size);
/* Whether a valid chain holds exactly one X509 certificate and nothing else (PK). */
bool var_siglist_one_x509(const UINT8 *data, UINT32 size);
/* Adds to out (room for max) the X509 certificates of a chain; returns the new count. */
UINT32 var_siglist_x509(const UINT8 *data, UINT32 size, struct pkcs7_blob *out, UINT32 count,
			UINT32 max);
/* Appends to the chain in buf (*size bytes, room for cap) the entries of the chain add
 * that it lacks (8.2.6: an EFI_SIGNATURE_DATA already present is not added again); lists
 * left empty are dropped. False when add is malformed or the result exceeds cap. */
bool var_siglist_merge(UINT8 *buf, UINT32 *size, UINT32 cap, const UINT8 *add, UINT32 add_size);

/* A DER certificate's tbsCertificate (its whole encoding) and its subject's Common Name
 * (the contents of the attribute value; size 0 when it has none). False when malformed. */
bool var_x509_tbs(struct pkcs7_blob cert, struct pkcs7_blob *tbs);
bool var_x509_common_name(struct pkcs7_blob cert, struct pkcs7_blob *cn);

#endif
