/* The specification's variables (UEFI 2.10, 3.3 table 3.1; 32.6 for the image security
 * databases): their attributes, which ones only the firmware writes, and what their
 * values must look like. Under EFI_GLOBAL_VARIABLE only these may be created (3.3:
 * "implementations must only permit the creation of variables with a UEFI
 * Specification-defined VendorGuid when these variables are documented"). */
#include "var_internal.h"
#include <ember/lib/str.h>
#include <ember/lib/guids.h>

#define BR (VAR_BS | VAR_RT)
#define NBR VAR_NBR
#define RO VAR_RULE_READ_ONLY
#define NUM VAR_RULE_NUMBERED

static const struct var_rule global_rules[] = {
    {u"AuditMode", BR, RO, VAR_CHECK_UINT8},
    {u"Boot", NBR, NUM, VAR_CHECK_LOAD_OPTION},
    {u"BootCurrent", BR, RO, VAR_CHECK_UINT16},
    {u"BootNext", NBR, 0, VAR_CHECK_UINT16},
    {u"BootOrder", NBR, 0, VAR_CHECK_UINT16_ARRAY},
    {u"BootOptionSupport", BR, RO, VAR_CHECK_UINT32},
    {u"ConIn", NBR, 0, VAR_CHECK_DEVICE_PATH},
    {u"ConInDev", BR, RO, VAR_CHECK_DEVICE_PATH},
    {u"ConOut", NBR, 0, VAR_CHECK_DEVICE_PATH},
    {u"ConOutDev", BR, RO, VAR_CHECK_DEVICE_PATH},
    {u"CryptoIndications", NBR, 0, VAR_CHECK_UINT64},
    {u"CryptoIndicationsActivated", BR, RO, VAR_CHECK_UINT64},
    {u"CryptoIndicationsSupported", BR, RO, VAR_CHECK_UINT64},
    {u"dbDefault", BR, RO, VAR_CHECK_NONE},
    {u"dbrDefault", BR, RO, VAR_CHECK_NONE},
    {u"dbtDefault", BR, RO, VAR_CHECK_NONE},
    {u"dbxDefault", BR, RO, VAR_CHECK_NONE},
    {u"DeployedMode", BR, RO, VAR_CHECK_UINT8},
    {u"devAuthBoot", BR, RO, VAR_CHECK_UINT8},
    {u"devdbDefault", BR, RO, VAR_CHECK_NONE},
    {u"Driver", NBR, NUM, VAR_CHECK_LOAD_OPTION},
    {u"DriverOrder", NBR, 0, VAR_CHECK_UINT16_ARRAY},
    {u"ErrOut", NBR, 0, VAR_CHECK_DEVICE_PATH},
    {u"ErrOutDev", BR, RO, VAR_CHECK_DEVICE_PATH},
    {u"HwErrRecSupport", NBR, RO, VAR_CHECK_UINT16},
    {u"KEK", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"KEKDefault", BR, RO, VAR_CHECK_NONE},
    {u"Key", NBR, NUM, VAR_CHECK_KEY_OPTION},
    {u"Lang", NBR, 0, VAR_CHECK_LANG},
    {u"LangCodes", BR, RO, VAR_CHECK_NONE},
    {u"OsIndications", NBR, 0, VAR_CHECK_UINT64},
    {u"OsIndicationsSupported", BR, RO, VAR_CHECK_UINT64},
    {u"OsRecoveryOrder", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"PK", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"PKDefault", BR, RO, VAR_CHECK_NONE},
    {u"PlatformLang", NBR, 0, VAR_CHECK_PLATFORM_LANG},
    {u"PlatformLangCodes", BR, RO, VAR_CHECK_NONE},
    {u"PlatformRecovery", BR, RO | NUM, VAR_CHECK_LOAD_OPTION},
    {u"SecureBoot", BR, RO, VAR_CHECK_UINT8},
    {u"SetupMode", BR, RO, VAR_CHECK_UINT8},
    {u"SignatureSupport", BR, RO, VAR_CHECK_NONE},
    {u"SysPrep", NBR, NUM, VAR_CHECK_LOAD_OPTION},
    {u"SysPrepOrder", NBR, 0, VAR_CHECK_UINT16_ARRAY},
    {u"Timeout", NBR, 0, VAR_CHECK_UINT16},
    {u"VendorKeys", BR, RO, VAR_CHECK_UINT8},
};

/* The signature databases are authenticated variables (32.6.1). */
static const struct var_rule security_db_rules[] = {
    {u"db", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"dbr", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"dbt", NBR | VAR_AT, 0, VAR_CHECK_NONE},
    {u"dbx", NBR | VAR_AT, 0, VAR_CHECK_NONE},
};

static bool is_upper_hex(CHAR16 c)
{
	return (c >= u'0' && c <= u'9') || (c >= u'A' && c <= u'F');
}

bool var_name_is_numbered(const CHAR16 *name, const CHAR16 *prefix)
{
	size_t n = str16_len(prefix);

	if (str16_ncmp(name, prefix, n))
		return false;
	for (size_t i = 0; i < 4; i++)
		if (!is_upper_hex(name[n + i]))
			return false;
	return name[n + 4] == 0;
}

static const struct var_rule *find_in(const struct var_rule *rules, size_t count,
				      const CHAR16 *name)
{
	for (size_t i = 0; i < count; i++) {
		bool numbered = rules[i].flags & VAR_RULE_NUMBERED;
		if (numbered ? var_name_is_numbered(name, rules[i].name)
			     : !str16_cmp(name, rules[i].name))
			return &rules[i];
	}
	return NULL;
}

const struct var_rule *var_rule_find(const CHAR16 *name, const EFI_GUID *guid)
{
	if (guid_eq(guid, &efi_global_variable_guid))
		return find_in(global_rules, ARRAY_SIZE(global_rules), name);
	if (guid_eq(guid, &efi_image_security_database_guid))
		return find_in(security_db_rules, ARRAY_SIZE(security_db_rules), name);
	return NULL;
}

bool var_guid_is_reserved(const EFI_GUID *guid)
{
	return guid_eq(guid, &efi_global_variable_guid);
}

bool var_is_hwerr_key(const CHAR16 *name, const EFI_GUID *guid)
{
	return guid_eq(guid, &efi_hardware_error_variable_guid) &&
	       var_name_is_numbered(name, u"HwErrRec");
}
