/* Empty: the freestanding build of mbedTLS takes no stdio (crypto/libc/string.h). */
