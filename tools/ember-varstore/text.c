/* Text forms of GUIDs, attributes, names and data for ember-varstore. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool.h"
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

bool parse_guid(const char *text, EFI_GUID *guid)
{
	if (!strcmp(text, "global")) {
		*guid = efi_global_variable_guid;
		return true;
	}
	return strlen(text) == 36 && guid_from_str(guid, text, 36);
}

static const struct {
	const char *name;
	UINT32 bit;
} attribute_names[] = {
    {"nv", EFI_VARIABLE_NON_VOLATILE},
    {"bs", EFI_VARIABLE_BOOTSERVICE_ACCESS},
    {"rt", EFI_VARIABLE_RUNTIME_ACCESS},
    {"hr", EFI_VARIABLE_HARDWARE_ERROR_RECORD},
    {"at", EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS},
};

bool parse_attributes(const char *text, UINT32 *attributes)
{
	char *copy = strdup(text), *save = NULL, *end;
	bool ok = true;

	*attributes = (UINT32)strtoul(text, &end, 0);
	if (*text && !*end) {
		free(copy);
		return true;
	}
	*attributes = 0;
	for (char *word = strtok_r(copy, ",", &save); word && ok;
	     word = strtok_r(NULL, ",", &save)) {
		size_t i;
		for (i = 0; i < sizeof(attribute_names) / sizeof(attribute_names[0]); i++)
			if (!strcasecmp(word, attribute_names[i].name))
				break;
		ok = i < sizeof(attribute_names) / sizeof(attribute_names[0]);
		if (ok)
			*attributes |= attribute_names[i].bit;
	}
	free(copy);
	return ok && *attributes;
}

void format_attributes(UINT32 attributes, char *out, size_t size)
{
	size_t used = 0;

	out[0] = 0;
	for (size_t i = 0; i < sizeof(attribute_names) / sizeof(attribute_names[0]); i++)
		if (attributes & attribute_names[i].bit) {
			used += (size_t)snprintf(out + used, size - used, "%s%s", used ? "," : "",
						 attribute_names[i].name);
			for (size_t j = used - strlen(attribute_names[i].name); j < used; j++)
				out[j] = (char)toupper((unsigned char)out[j]);
			attributes &= ~attribute_names[i].bit;
		}
	if (attributes)
		snprintf(out + used, size - used, "%s0x%x", used ? "," : "", attributes);
}

CHAR16 *name_from_utf8(const char *text)
{
	size_t len = strlen(text);
	CHAR16 *name = calloc(len + 1, sizeof(CHAR16));

	if (!name || !len || len * 2 > VARSTORE_MAX_VARIABLE) {
		free(name);
		return NULL;
	}
	utf8_to_ucs2(name, len + 1, text, len);
	return name;
}

const char *name_to_text(const CHAR16 *name, bool escape)
{
	static char out[VARSTORE_MAX_VARIABLE * 3];
	size_t used = 0;

	for (; *name && used + 8 < sizeof(out); name++) {
		if (escape && (*name <= 0x20 || *name >= 0x7f || *name == '\\'))
			used += (size_t)snprintf(out + used, sizeof(out) - used, "\\u%04x", *name);
		else
			used += ucs2_to_utf8(out + used, sizeof(out) - used, name, 1);
	}
	out[used] = 0;
	return out;
}

CHAR16 *name_from_escaped(const char *text)
{
	size_t len = strlen(text), n = 0;
	CHAR16 *name = calloc(len + 1, sizeof(CHAR16));

	for (const char *p = text; name && *p; p++) {
		unsigned int unit;
		if (*p != '\\') {
			name[n++] = (CHAR16)(unsigned char)*p;
			continue;
		}
		if (sscanf(p, "\\u%4x", &unit) != 1 || strlen(p) < 6) {
			free(name);
			return NULL;
		}
		name[n++] = (CHAR16)unit;
		p += 5;
	}
	if (name && !n) {
		free(name);
		return NULL;
	}
	return name;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool parse_hex(const char *text, UINT8 **data, size_t *size)
{
	size_t n = 0;
	UINT8 *out = malloc(strlen(text) / 2 + 1);
	int high = -1;

	for (const char *p = text; out && *p; p++) {
		int v = hex_value(*p);
		if (v < 0 && (*p == ' ' || *p == ':' || *p == '\n') && high < 0)
			continue;
		if (v < 0) {
			free(out);
			return false;
		}
		if (high < 0) {
			high = v;
		} else {
			out[n++] = (UINT8)(high << 4 | v);
			high = -1;
		}
	}
	if (!out || high >= 0) {
		free(out);
		return false;
	}
	*data = out;
	*size = n;
	return true;
}
