/* The function an address lies in, from a 64-bit little-endian ELF file's symbol table:
 * what ember-run's crash report names (a gnu-efi program's .so, ember-run itself). */
#ifndef EMBER_LIB_ELF_SYMBOLS_H
#define EMBER_LIB_ELF_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_symbol {
	const char *name; /* inside the file, name_len bytes, not NUL-terminated */
	size_t name_len;
	uint64_t start; /* the function's address (its link-time value) */
};

/* Finds the function symbol (STT_FUNC, in .symtab, else .dynsym) whose [value, value +
 * size) holds address. Reads only the size bytes given; false for a file that is not such
 * an ELF file, is cut short, or has no such symbol. */
bool elf_function_at(const void *file, size_t size, uint64_t address, struct elf_symbol *out);

#endif
