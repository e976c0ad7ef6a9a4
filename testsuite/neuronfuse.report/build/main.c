/* Unit obj/main.c: nothing to fuse, still a unit of the build.  */
int
main (void)
{
  return 0;
}
