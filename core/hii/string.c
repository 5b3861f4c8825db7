/* EFI_HII_STRING_PROTOCOL (UEFI 2.10, 34.2) over the string packages of the database: a
 * package's language is the part of its Language field before the first ';', what follows
 * are its secondary languages. Languages compare without regard to case (RFC 4646). */
#define LOG_PREFIX "hii: "
#include "hii.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>
#include <efi/protocol/hii_string.h>

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Length of a package's primary language (up to ';'). */
static size_t primary_length(const char *language)
{
	size_t n = 0;

	while (language[n] && language[n] != ';')
		n++;
	return n;
}

/* Whether a package's primary language is the language asked for. */
static bool language_is(const UINT8 *package, const char *language)
{
	const char *own = hii_string_package_language(package);
	size_t n = primary_length(own);

	for (size_t i = 0; i < n; i++) {
		if (lower(own[i]) != lower(language[i]))
			return false;
	}
	return language[n] == 0;
}

static struct hii_package *find_language(struct hii_list *list, const char *language)
{
	struct hii_package *package;

	list_for_each_entry (package, &list->packages, link) {
		if (package->type == EFI_HII_PACKAGE_STRINGS &&
		    language_is(package->data, language))
			return package;
	}
	return NULL;
}

static bool package_has(const struct hii_package *package, EFI_STRING_ID id,
			struct hii_string_ref *ref)
{
	size_t size;
	const UINT8 *blocks = hii_string_package_blocks(package->data, &size);

	return hii_string_find(blocks, size, id, ref);
}

/* Whether any string package of the list holds the id (then the language was wrong). */
static bool any_language_has(struct hii_list *list, EFI_STRING_ID id)
{
	struct hii_package *package;
	struct hii_string_ref ref;

	list_for_each_entry (package, &list->packages, link) {
		if (package->type == EFI_HII_PACKAGE_STRINGS && package_has(package, id, &ref))
			return true;
	}
	return false;
}

/* The EFI_FONT_INFO of a string's font, in pool memory for the caller to free; NULL when
 * the package does not define the font. */
static EFI_FONT_INFO *font_info(const struct hii_package *package, UINT8 font_id)
{
	size_t size;
	const UINT8 *blocks = hii_string_package_blocks(package->data, &size);
	struct hii_font_ref font;
	EFI_FONT_INFO *info;

	if (!hii_string_font(blocks, size, font_id, &font))
		return NULL;
	info = pool_alloc(offsetof(EFI_FONT_INFO, FontName) + font.name_bytes + sizeof(CHAR16));
	if (!info)
		return NULL;
	info->FontStyle = font.style;
	info->FontSize = font.size;
	mem_copy(info->FontName, font.name, font.name_bytes); /* pool_alloc zeroed the end */
	return info;
}

static EFI_STATUS EFIAPI hii_get_string(const EFI_HII_STRING_PROTOCOL *This, const CHAR8 *Language,
					EFI_HII_HANDLE PackageList, EFI_STRING_ID StringId,
					EFI_STRING String, UINTN *StringSize,
					EFI_FONT_INFO **StringFontInfo)
{
	struct hii_list *list = hii_list_lookup(PackageList);
	struct hii_package *package;
	struct hii_string_ref ref;
	UINTN units;

	if (!Language || !StringSize || (*StringSize && !String) || !StringId || !PackageList)
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	package = find_language(list, Language);
	if (!package || !package_has(package, StringId, &ref))
		return any_language_has(list, StringId) ? EFI_INVALID_LANGUAGE : EFI_NOT_FOUND;
	units = hii_string_decode(&ref, String, *StringSize / sizeof(CHAR16));
	if (*StringSize < units * sizeof(CHAR16)) {
		*StringSize = units * sizeof(CHAR16);
		return EFI_BUFFER_TOO_SMALL;
	}
	*StringSize = units * sizeof(CHAR16);
	if (StringFontInfo)
		*StringFontInfo = ref.has_font ? font_info(package, ref.font_id) : NULL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_set_string(const EFI_HII_STRING_PROTOCOL *This,
					EFI_HII_HANDLE PackageList, EFI_STRING_ID StringId,
					const CHAR8 *Language, const EFI_STRING String,
					const EFI_FONT_INFO *StringFontInfo)
{
	struct hii_list *list = hii_list_lookup(PackageList);
	struct hii_package *package, *edited;
	struct hii_string_ref ref;

	if (!Language || !String || !StringId)
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	package = find_language(list, Language);
	if (!package || !package_has(package, StringId, &ref))
		return EFI_NOT_FOUND;
	edited = hii_string_package_edit(package, Language, StringId, String);
	if (!edited)
		return EFI_OUT_OF_RESOURCES;
	hii_package_replace(package, edited);
	return EFI_SUCCESS;
}

/* The next StringId of a list: one past the last any of its string packages defines. */
static UINT32 next_string_id(struct hii_list *list)
{
	struct hii_package *package;
	EFI_STRING_ID last, most = 0;

	list_for_each_entry (package, &list->packages, link) {
		size_t size;
		const UINT8 *blocks;

		if (package->type != EFI_HII_PACKAGE_STRINGS)
			continue;
		blocks = hii_string_package_blocks(package->data, &size);
		if (!hii_string_blocks_walk(blocks, size, NULL, NULL, &last) && last > most)
			most = last;
	}
	return (UINT32)most + 1;
}

/* Puts the new string in every string package of the list, so that the id means the same
 * string in each language, then in a new package when the language has none. */
static EFI_STATUS add_everywhere(struct hii_list *list, const CHAR8 *language, EFI_STRING_ID id,
				 const CHAR16 *text)
{
	struct hii_package *package, *next, *edited;

	list_for_each_entry_safe (package, next, &list->packages, link) {
		if (package->type != EFI_HII_PACKAGE_STRINGS)
			continue;
		edited = hii_string_package_edit(package, language, id, text);
		if (!edited)
			return EFI_OUT_OF_RESOURCES;
		hii_package_replace(package, edited);
	}
	if (find_language(list, language))
		return EFI_SUCCESS;
	edited = hii_string_package_edit(NULL, language, id, text);
	if (!edited)
		return EFI_OUT_OF_RESOURCES;
	list_add_tail(&edited->link, &list->packages);
	hii_notify(list, edited, EFI_HII_DATABASE_NOTIFY_ADD_PACK);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_new_string(const EFI_HII_STRING_PROTOCOL *This,
					EFI_HII_HANDLE PackageList, EFI_STRING_ID *StringId,
					const CHAR8 *Language, const CHAR16 *LanguageName,
					const EFI_STRING String,
					const EFI_FONT_INFO *StringFontInfo)
{
	struct hii_list *list = hii_list_lookup(PackageList);
	UINT32 id;
	EFI_STATUS status;

	if (!StringId || !Language || !String || !*Language)
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	id = next_string_id(list);
	if (id > 0xffff)
		return EFI_OUT_OF_RESOURCES;
	status = add_everywhere(list, Language, (EFI_STRING_ID)id, String);
	if (EFI_ERROR(status)) {
		log_debug("NewString: %r\n", status);
		return status;
	}
	*StringId = (EFI_STRING_ID)id;
	return EFI_SUCCESS;
}

/* Copies text into a caller's buffer of *size bytes, NUL-terminated; the spec's
 * EFI_BUFFER_TOO_SMALL with the size needed. */
static EFI_STATUS give_text(const char *text, size_t length, CHAR8 *out, UINTN *size)
{
	if (*size < length + 1) {
		*size = length + 1;
		return EFI_BUFFER_TOO_SMALL;
	}
	mem_copy(out, text, length);
	out[length] = 0;
	*size = length + 1;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_get_languages(const EFI_HII_STRING_PROTOCOL *This,
					   EFI_HII_HANDLE PackageList, CHAR8 *Languages,
					   UINTN *LanguagesSize)
{
	struct hii_list *list = hii_list_lookup(PackageList);
	struct hii_package *package;
	UINTN need = 0, room;

	if (!PackageList || !LanguagesSize || (*LanguagesSize && !Languages))
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	room = *LanguagesSize;
	list_for_each_entry (package, &list->packages, link) {
		const char *own;
		size_t n;

		if (package->type != EFI_HII_PACKAGE_STRINGS)
			continue;
		own = hii_string_package_language(package->data);
		n = primary_length(own);
		if (need && need < room)
			Languages[need - 1] = ';';
		if (need + n < room)
			mem_copy(Languages + need, own, n);
		need += n + 1;
	}
	if (!need)
		need = 1;
	if (need > room) {
		*LanguagesSize = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	Languages[need - 1] = 0;
	*LanguagesSize = need;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI hii_get_secondary_languages(const EFI_HII_STRING_PROTOCOL *This,
						     EFI_HII_HANDLE PackageList,
						     const CHAR8 *PrimaryLanguage,
						     CHAR8 *SecondaryLanguages,
						     UINTN *SecondaryLanguagesSize)
{
	struct hii_list *list = hii_list_lookup(PackageList);
	struct hii_package *package;
	const char *own;
	size_t n;

	if (!PackageList || !PrimaryLanguage || !SecondaryLanguagesSize ||
	    (*SecondaryLanguagesSize && !SecondaryLanguages))
		return EFI_INVALID_PARAMETER;
	if (!list)
		return EFI_NOT_FOUND;
	package = find_language(list, PrimaryLanguage);
	if (!package)
		return EFI_INVALID_LANGUAGE;
	own = hii_string_package_language(package->data);
	n = primary_length(own);
	own += own[n] == ';' ? n + 1 : n;
	return give_text(own, str8_len(own), SecondaryLanguages, SecondaryLanguagesSize);
}

/* The string protocol, published with the database protocol (database.c). */
EFI_HII_STRING_PROTOCOL hii_string_protocol = {hii_new_string, hii_get_string, hii_set_string,
					       hii_get_languages, hii_get_secondary_languages};
