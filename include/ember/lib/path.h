/* EFI file paths as EFI_FILE_PROTOCOL.Open() reads them (UEFI 2.10, 13.5.2): components
 * separated by '\', a leading '\' meaning the root, "." and "..". Pure logic, shared by the
 * hosted volume and file-system drivers.
 *
 * A normalised path is absolute: "\" for the root, else "\A\B" with no empty, "." or ".."
 * components and no trailing separator. */
#ifndef EMBER_PATH_H
#define EMBER_PATH_H

#include <stdbool.h>
#include <efi/status.h>

/* The longest component, in UCS-2 units (a FAT long name). */
#define PATH_NAME_MAX 255

/* Resolves name against base (a normalised path; ignored when name starts with '\') into
 * out. Empty components and "." are dropped, ".." removes the previous component.
 * out needs at most str16_len(base) + str16_len(name) + 2 units.
 * EFI_NOT_FOUND: ".." above the root (the root has no parent).
 * EFI_INVALID_PARAMETER: base is not absolute, or a component holds a control character
 * or '/', or is longer than PATH_NAME_MAX.
 * EFI_BUFFER_TOO_SMALL: out is too short. */
EFI_STATUS path_normalize(const CHAR16 *base, const CHAR16 *name, CHAR16 *out, size_t out_units);

/* Steps through the components of a normalised path: returns the length of the next one
 * and sets *name to it, or returns 0 at the end. Start with *cursor = path. */
size_t path_next(const CHAR16 **cursor, const CHAR16 **name);

/* The last component of a normalised path ("" for the root). */
const CHAR16 *path_last(const CHAR16 *path);

/* The length of the parent's path within a normalised path: "\A\B" -> 2, "\A" -> 1.
 * The root has no parent: 0. */
size_t path_parent_len(const CHAR16 *path);

/* Case folding for file names: ASCII, Latin-1, Greek and Cyrillic letters. */
CHAR16 path_upper(CHAR16 c);

/* True when two names are equal ignoring case, as FAT compares them. */
bool path_name_equal(const CHAR16 *a, size_t a_len, const CHAR16 *b, size_t b_len);

/* True when name may be given to a new file (FAT long-name rules): 1 to PATH_NAME_MAX
 * units, no control characters, none of  " * / : < > ? \ |  and not only dots. */
bool path_name_creatable(const CHAR16 *name, size_t len);

#endif
