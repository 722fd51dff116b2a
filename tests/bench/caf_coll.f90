! gfortran's coarrays on OpenCoarrays, the PGAS peer on MPI: co_broadcast
! of n bytes from image 1, and co_sum of one integer(8) per image to image 1,
! timed as tests/mpi/bench_coll times tupc (the median of 15 batches, image
! 1's time per call, ns), to put beside it at the same process counts:
!   caf -O2 tests/bench/caf_coll.f90 -o caf_coll
!   cafrun -np P ./caf_coll [reps]
! Output: one line per figure, "co_broadcast BYTES NS" and "co_sum 8 NS".
program caf_coll
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: batches = 15
  integer(int64), allocatable :: buf(:)
  integer(int64) :: s, sizes(3) = [8_int64, 65536_int64, 16777216_int64]
  real(8) :: t(batches)
  integer :: reps, r, k, b, i, n
  character(len=32) :: arg

  reps = 200
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) reps
  end if
  allocate (buf(sizes(3) / 8))
  buf = this_image()
  if (this_image() == 1) print '(a,i0,a)', '# caf_coll: ', num_images(), &
    ' images, median of 15 batches, ns per call'
  do k = 1, 3
    n = int(sizes(k) / 8)
    r = reps
    if (sizes(k) > 8) r = reps / 8 + 1
    if (sizes(k) > 65536) r = 3
    do b = 0, batches
      sync all
      t(max(b, 1)) = now()
      do i = 1, r
        call co_broadcast(buf(1:n), source_image=1)
      end do
      t(max(b, 1)) = (now() - t(max(b, 1))) / r
      sync all
    end do
    if (this_image() == 1) print '(a,i0,a,f0.0)', 'co_broadcast ', sizes(k), ' ', median(t)
  end do
  do b = 0, batches
    sync all
    t(max(b, 1)) = now()
    do i = 1, reps
      s = this_image()
      call co_sum(s, result_image=1)
    end do
    t(max(b, 1)) = (now() - t(max(b, 1))) / reps
    sync all
  end do
  if (this_image() == 1) print '(a,f0.0)', 'co_sum 8 ', median(t)

contains

  real(8) function now()
    integer(int64) :: c, rate
    call system_clock(c, rate)
    now = real(c, 8) * 1.0d9 / real(rate, 8)
  end function

  real(8) function median(v)
    real(8), intent(in) :: v(:)
    real(8) :: w(size(v)), x
    integer :: p, q
    w = v
    do p = 2, size(w) ! insertion sort: 15 values
      x = w(p)
      q = p - 1
      do while (q >= 1)
        if (w(q) <= x) exit
        w(q + 1) = w(q)
        q = q - 1
      end do
      w(q + 1) = x
    end do
    median = w((size(w) + 1) / 2)
  end function
end program
