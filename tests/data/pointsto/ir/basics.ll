; ModuleID = 'basics.c'
source_filename = "basics.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.pair = type { i32*, i32* }

@x = dso_local global i32 0, align 4
@gp = dso_local global i32* @x, align 8
@y = dso_local global i32 0, align 4
@z = dso_local global i32 0, align 4
@table = dso_local global [2 x i32*] [i32* @y, i32* @z], align 16
@gpair = dso_local global %struct.pair { i32* @x, i32* null }, align 8
@out1 = dso_local global i32* null, align 8
@out2 = dso_local global i32* null, align 8
@out3 = dso_local global i32* null, align 8
@out4 = dso_local global i64 0, align 8

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main() #0 {
entry:
  %retval = alloca i32, align 4
  %local = alloca %struct.pair, align 8
  %arr = alloca [4 x i32*], align 16
  %c = alloca i8*, align 8
  store i32 0, i32* %retval, align 4
  %b = getelementptr inbounds %struct.pair, %struct.pair* %local, i32 0, i32 1
  store i32* @y, i32** %b, align 8
  %0 = load i32*, i32** @gp, align 8
  %a = getelementptr inbounds %struct.pair, %struct.pair* %local, i32 0, i32 0
  store i32* %0, i32** %a, align 8
  %b1 = getelementptr inbounds %struct.pair, %struct.pair* %local, i32 0, i32 1
  %1 = load i32*, i32** %b1, align 8
  store i32* %1, i32** @out1, align 8
  %2 = load i32*, i32** getelementptr inbounds ([2 x i32*], [2 x i32*]* @table, i64 0, i64 1), align 8
  %arrayidx = getelementptr inbounds [4 x i32*], [4 x i32*]* %arr, i64 0, i64 2
  store i32* %2, i32** %arrayidx, align 16
  %arrayidx2 = getelementptr inbounds [4 x i32*], [4 x i32*]* %arr, i64 0, i64 0
  %3 = load i32*, i32** %arrayidx2, align 16
  store i32* %3, i32** @out2, align 8
  store i8* bitcast (i32* @z to i8*), i8** %c, align 8
  %4 = load i8*, i8** %c, align 8
  %add.ptr = getelementptr inbounds i8, i8* %4, i64 1
  %5 = bitcast i8* %add.ptr to i32*
  store i32* %5, i32** @out3, align 8
  store i64 ptrtoint (i32* @x to i64), i64* @out4, align 8
  ret i32 0
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
