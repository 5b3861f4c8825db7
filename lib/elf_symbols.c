/* ELF64 symbol lookup (include/ember/lib/elf_symbols.h), from the System V ABI's ELF
 * layout: section headers at e_shoff, symbol tables of 24-byte entries whose names lie in
 * the string table their sh_link names. Every offset is checked against the file size. */
#include <ember/lib/elf_symbols.h>

#define EHDR_SIZE 64
#define SHDR_SIZE 64
#define SYM_SIZE 24
#define SHT_SYMTAB 2
#define SHT_DYNSYM 11
#define STT_FUNC 2

struct span {
	const uint8_t *data;
	uint64_t size;
};

static uint64_t le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* The bytes [offset, offset + size) of the file, or false when they are not all in it. */
static bool slice(const struct span *file, uint64_t offset, uint64_t size, struct span *out)
{
	if (offset > file->size || size > file->size - offset)
		return false;
	out->data = file->data + offset;
	out->size = size;
	return true;
}

/* Section header index of the first section of the given type, or -1. */
static long find_section(const struct span *headers, uint64_t count, uint32_t type)
{
	for (uint64_t i = 0; i < count; i++)
		if (le(headers->data + i * SHDR_SIZE + 4, 4) == type)
			return (long)i;
	return -1;
}

static bool name_of(const struct span *strtab, uint64_t offset, struct elf_symbol *out)
{
	uint64_t n = 0;

	if (offset >= strtab->size)
		return false;
	while (offset + n < strtab->size && strtab->data[offset + n])
		n++;
	if (offset + n == strtab->size || n == 0)
		return false; /* not terminated inside the table, or empty */
	out->name = (const char *)strtab->data + offset;
	out->name_len = n;
	return true;
}

static bool search(const struct span *symbols, const struct span *strtab, uint64_t address,
		   struct elf_symbol *out)
{
	for (uint64_t off = 0; off + SYM_SIZE <= symbols->size; off += SYM_SIZE) {
		const uint8_t *sym = symbols->data + off;
		uint64_t value = le(sym + 8, 8), size = le(sym + 16, 8);
		if ((sym[4] & 0xf) != STT_FUNC || le(sym + 6, 2) == 0 || address < value ||
		    address - value >= size)
			continue;
		if (name_of(strtab, le(sym, 4), out)) {
			out->start = value;
			return true;
		}
	}
	return false;
}

bool elf_function_at(const void *data, size_t size, uint64_t address, struct elf_symbol *out)
{
	const struct span file = {data, size};
	struct span headers, symbols, strtab;
	uint64_t count;
	long index;

	if (size < EHDR_SIZE || le(file.data, 4) != 0x464c457f || file.data[4] != 2 ||
	    file.data[5] != 1 || le(file.data + 0x3a, 2) != SHDR_SIZE)
		return false; /* not ELF64 little-endian with standard section headers */
	count = le(file.data + 0x3c, 2);
	if (!slice(&file, le(file.data + 0x28, 8), count * SHDR_SIZE, &headers))
		return false;
	index = find_section(&headers, count, SHT_SYMTAB);
	if (index < 0)
		index = find_section(&headers, count, SHT_DYNSYM);
	if (index < 0)
		return false;
	const uint8_t *sh = headers.data + (uint64_t)index * SHDR_SIZE;
	uint64_t link = le(sh + 40, 4);
	if (le(sh + 56, 8) != SYM_SIZE || link >= count ||
	    !slice(&file, le(sh + 24, 8), le(sh + 32, 8), &symbols))
		return false;
	const uint8_t *str = headers.data + link * SHDR_SIZE;
	if (!slice(&file, le(str + 24, 8), le(str + 32, 8), &strtab))
		return false;
	return search(&symbols, &strtab, address, out);
}
