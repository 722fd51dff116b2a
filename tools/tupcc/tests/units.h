/* What units.upc, units_lib.upc and units_c.c share. */
#define BLK 3
#ifdef __UPC__
extern shared [BLK] int data[BLK * THREADS];
int check_data(shared [BLK] int *p, int n);
shared [BLK] int *at(int i);
int lib_counter_bump(void);
int lib_counter_read(void);
#endif
int c_side_sum(void);
