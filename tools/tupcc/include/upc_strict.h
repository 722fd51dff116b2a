/* UPC 1.3 6.7.1: the including file's unqualified shared accesses are strict. */
#pragma upc strict
