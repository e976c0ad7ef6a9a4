/* Area: neuronfuse-report.  Purpose: text from the source is escaped.
   The comment below lies in the excerpt of the region after it: the page
   must show it as text, never close the <pre> or run the script.  */
#include <math.h>

double
escaped (double x)
{
  /* </pre><script>document.title = "pwned"</script> & "quotes" 'too' */
  return exp (x) - 1.0;
}
