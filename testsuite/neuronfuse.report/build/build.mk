# A small project in three directories for report.exp: built with make
# -j and one CFLAGS line, as a user adds the plugin to a real build.
SRC = .
OBJS = obj/a/util.o obj/b/util.o obj/main.o
all: $(OBJS)
obj/%.o: $(SRC)/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
