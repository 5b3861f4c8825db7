/* The file picker: not written yet. */
#include "ui.h"

/* Lets the user choose a file. */
EFI_STATUS setup_pick_file(const char *title, EFI_HANDLE *volume, CHAR16 *path, size_t units)
{
	return EFI_UNSUPPORTED;
}
