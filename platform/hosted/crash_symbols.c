/* Names the function a crash report's address lies in: for an EFI program, from the
 * symbol file beside it (a gnu-efi NAME.so next to NAME.efi, in the program's directory
 * or the --esp directory); for ember-run itself, from its own symbol table. Runs in the
 * crash signal handler: only open, fstat, mmap and munmap, and Ember's pure library. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "hosted.h"
#include <ember/lib/elf_symbols.h>
#include <ember/lib/format.h>

#define PATH_SIZE 4096

static bool lookup_in(const char *path, UINT64 offset, char *out, size_t size)
{
	struct elf_symbol sym;
	struct stat st;
	void *map;
	bool found = false;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0)
		goto out_close;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED)
		goto out_close;
	if (elf_function_at(map, (size_t)st.st_size, offset, &sym)) {
		format_sn(out, size, "%.*s+0x%llx", (int)sym.name_len, sym.name,
			  (unsigned long long)(offset - sym.start));
		found = true;
	}
	munmap(map, (size_t)st.st_size);
out_close:
	close(fd);
	return found;
}

/* "DIR/STEM.so" where DIR is the directory part of "where" (a file when file is true). */
static bool symbol_path(const char *where, bool file, const char *image_name, char *out)
{
	size_t dir_len = strlen(where), stem_len = strlen(image_name);
	const char *dot = strrchr(image_name, '.');

	if (file) {
		const char *slash = strrchr(where, '/');
		dir_len = slash ? (size_t)(slash - where) : 0;
	}
	if (dot)
		stem_len = (size_t)(dot - image_name);
	if (dir_len == 0 && file)
		return format_sn(out, PATH_SIZE, "%.*s.so", (int)stem_len, image_name) < PATH_SIZE;
	return format_sn(out, PATH_SIZE, "%.*s/%.*s.so", (int)dir_len, where, (int)stem_len,
			 image_name) < PATH_SIZE;
}

bool hosted_function_name(const char *image_name, UINT64 offset, char *out, size_t size)
{
	static char path[PATH_SIZE];

	if (!image_name)
		return lookup_in("/proc/self/exe", offset, out, size);
	if (hosted_options.app && !strchr(hosted_options.app, '\\') &&
	    symbol_path(hosted_options.app, true, image_name, path) &&
	    lookup_in(path, offset, out, size))
		return true;
	return hosted_options.esp && symbol_path(hosted_options.esp, false, image_name, path) &&
	       lookup_in(path, offset, out, size);
}
