; ModuleID = 'calls.c'
source_filename = "calls.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@unused = dso_local global void (i32*)* @never, align 8
@a = dso_local global i32 0, align 4
@b = dso_local global i32 0, align 4
@r1 = dso_local global i32* null, align 8
@c = dso_local global i32 0, align 4
@d = dso_local global i32 0, align 4
@r2 = dso_local global i32* null, align 8
@ops = internal global [2 x i32* (i32*, i32*)*] [i32* (i32*, i32*)* @first, i32* (i32*, i32*)* @second], align 16
@r3 = dso_local global i32* null, align 8
@r4 = dso_local global i32* null, align 8
@r5 = dso_local global i32* null, align 8

; Function Attrs: noinline nounwind optnone uwtable
define internal void @never(i32* noundef %p) #0 {
entry:
  %p.addr = alloca i32*, align 8
  store i32* %p, i32** %p.addr, align 8
  %0 = load i32*, i32** %p.addr, align 8
  store i32* %0, i32** @r4, align 8
  ret void
}

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main(i32 noundef %argc, i8** noundef %argv) #0 {
entry:
  %retval = alloca i32, align 4
  %argc.addr = alloca i32, align 4
  %argv.addr = alloca i8**, align 8
  %fp = alloca i32* (i32*, i32*)*, align 8
  store i32 0, i32* %retval, align 4
  store i32 %argc, i32* %argc.addr, align 4
  store i8** %argv, i8*** %argv.addr, align 8
  %0 = load i8**, i8*** %argv.addr, align 8
  %call = call i32* @first(i32* noundef @a, i32* noundef @b)
  store i32* %call, i32** @r1, align 8
  %1 = load i32, i32* %argc.addr, align 4
  %cmp = icmp sgt i32 %1, 1
  %2 = zext i1 %cmp to i64
  %cond = select i1 %cmp, i32* (i32*, i32*)* @first, i32* (i32*, i32*)* @second
  store i32* (i32*, i32*)* %cond, i32* (i32*, i32*)** %fp, align 8
  %3 = load i32* (i32*, i32*)*, i32* (i32*, i32*)** %fp, align 8
  %call1 = call i32* %3(i32* noundef @c, i32* noundef @d)
  store i32* %call1, i32** @r2, align 8
  %4 = load i32* (i32*, i32*)*, i32* (i32*, i32*)** getelementptr inbounds ([2 x i32* (i32*, i32*)*], [2 x i32* (i32*, i32*)*]* @ops, i64 0, i64 1), align 8
  %call2 = call i32* %4(i32* noundef @a, i32* noundef @d)
  store i32* %call2, i32** @r3, align 8
  call void @apply(void (i32*)* noundef @keep, i32* noundef @b)
  ret i32 0
}

; Function Attrs: noinline nounwind optnone uwtable
define internal i32* @first(i32* noundef %p, i32* noundef %q) #0 {
entry:
  %p.addr = alloca i32*, align 8
  %q.addr = alloca i32*, align 8
  store i32* %p, i32** %p.addr, align 8
  store i32* %q, i32** %q.addr, align 8
  %0 = load i32*, i32** %q.addr, align 8
  %1 = load i32*, i32** %p.addr, align 8
  ret i32* %1
}

; Function Attrs: noinline nounwind optnone uwtable
define internal i32* @second(i32* noundef %p, i32* noundef %q) #0 {
entry:
  %p.addr = alloca i32*, align 8
  %q.addr = alloca i32*, align 8
  store i32* %p, i32** %p.addr, align 8
  store i32* %q, i32** %q.addr, align 8
  %0 = load i32*, i32** %p.addr, align 8
  %1 = load i32*, i32** %q.addr, align 8
  ret i32* %1
}

; Function Attrs: noinline nounwind optnone uwtable
define internal void @apply(void (i32*)* noundef %f, i32* noundef %arg) #0 {
entry:
  %f.addr = alloca void (i32*)*, align 8
  %arg.addr = alloca i32*, align 8
  store void (i32*)* %f, void (i32*)** %f.addr, align 8
  store i32* %arg, i32** %arg.addr, align 8
  %0 = load void (i32*)*, void (i32*)** %f.addr, align 8
  %1 = load i32*, i32** %arg.addr, align 8
  call void %0(i32* noundef %1)
  ret void
}

; Function Attrs: noinline nounwind optnone uwtable
define internal void @keep(i32* noundef %p) #0 {
entry:
  %p.addr = alloca i32*, align 8
  store i32* %p, i32** %p.addr, align 8
  %0 = load i32*, i32** %p.addr, align 8
  store i32* %0, i32** @r5, align 8
  ret void
}

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 14.0.6"}
