/* What units.upc, units_lib.upc and units_c.c share. */
#define BLK 3
#ifdef __UPC__
/* UPC, which clang-format does not know. */
/* clang-format off */
extern shared [BLK] int data[BLK * THREADS];
int check_data(shared [BLK] int *p, int n);
shared [BLK] int *at(int i);
int lib_counter_bump(void);
int lib_counter_read(void);
/* clang-format on */
#endif
int c_side_sum(void);
