; ModuleID = 'libc.c'
source_filename = "libc.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@x = dso_local global i32 0, align 4
@h1 = dso_local global i32** null, align 8
@h2 = dso_local global i32** null, align 8
@y = dso_local global i32 0, align 4
@__const.main.src = private unnamed_addr constant [1 x i32*] [i32* @y], align 8
@h3 = dso_local global i32* null, align 8
@h4 = dso_local global i32* null, align 8
@buf = dso_local global [8 x i8] zeroinitializer, align 1
@.str = private unnamed_addr constant [3 x i8] c"ab\00", align 1
@s1 = dso_local global i8* null, align 8
@e1 = dso_local global i8* null, align 8
@d1 = dso_local global i8* null, align 8

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main() #0 {
entry:
  %retval = alloca i32, align 4
  %p = alloca i32**, align 8
  %q = alloca i32**, align 8
  %src = alloca [1 x i32*], align 8
  %dst = alloca [1 x i32*], align 8
  %m = alloca i8*, align 8
  store i32 0, i32* %retval, align 4
  %call = call noalias i8* @malloc(i64 noundef 8) #3
  %0 = bitcast i8* %call to i32**
  store i32** %0, i32*** %p, align 8
  %1 = load i32**, i32*** %p, align 8
  store i32* @x, i32** %1, align 8
  %2 = load i32**, i32*** %p, align 8
  store i32** %2, i32*** @h1, align 8
  %3 = load i32**, i32*** %p, align 8
  %4 = bitcast i32** %3 to i8*
  %call1 = call i8* @realloc(i8* noundef %4, i64 noundef 16) #3
  %5 = bitcast i8* %call1 to i32**
  store i32** %5, i32*** %q, align 8
  %6 = load i32**, i32*** %q, align 8
  store i32** %6, i32*** @h2, align 8
  %7 = bitcast [1 x i32*]* %src to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %7, i8* align 8 bitcast ([1 x i32*]* @__const.main.src to i8*), i64 8, i1 false)
  %arraydecay = getelementptr inbounds [1 x i32*], [1 x i32*]* %dst, i64 0, i64 0
  %8 = bitcast i32** %arraydecay to i8*
  %arraydecay2 = getelementptr inbounds [1 x i32*], [1 x i32*]* %src, i64 0, i64 0
  %9 = bitcast i32** %arraydecay2 to i8*
  call void @llvm.memcpy.p0i8.p0i8.i64(i8* align 8 %8, i8* align 8 %9, i64 8, i1 false)
  %arrayidx = getelementptr inbounds [1 x i32*], [1 x i32*]* %dst, i64 0, i64 0
  %10 = load i32*, i32** %arrayidx, align 8
  store i32* %10, i32** @h3, align 8
  %arraydecay3 = getelementptr inbounds [1 x i32*], [1 x i32*]* %dst, i64 0, i64 0
  %11 = bitcast i32** %arraydecay3 to i8*
  %12 = bitcast i32*** %p to i8*
  call void @llvm.memmove.p0i8.p0i8.i64(i8* align 8 %11, i8* align 8 %12, i64 8, i1 false)
  %arrayidx4 = getelementptr inbounds [1 x i32*], [1 x i32*]* %dst, i64 0, i64 0
  %13 = load i32*, i32** %arrayidx4, align 8
  store i32* %13, i32** @h4, align 8
  %call5 = call i8* @strcpy(i8* noundef getelementptr inbounds ([8 x i8], [8 x i8]* @buf, i64 0, i64 0), i8* noundef getelementptr inbounds ([3 x i8], [3 x i8]* @.str, i64 0, i64 0)) #3
  store i8* %call5, i8** @s1, align 8
  %call6 = call i64 @strtol(i8* noundef getelementptr inbounds ([8 x i8], [8 x i8]* @buf, i64 0, i64 0), i8** noundef @e1, i32 noundef 10) #3
  store i8* null, i8** %m, align 8
  %call7 = call i32 @posix_memalign(i8** noundef %m, i64 noundef 16, i64 noundef 8) #3
  %14 = load i8*, i8** %m, align 8
  store i8* %14, i8** @d1, align 8
  %15 = load i32**, i32*** @h1, align 8
  %16 = load i32*, i32** %15, align 8
  %17 = load i32, i32* %16, align 4
  %18 = load i32**, i32*** @h2, align 8
  %19 = load i32*, i32** %18, align 8
  %20 = load i32, i32* %19, align 4
  %add = add nsw i32 %17, %20
  ret i32 %add
}

; Function Attrs: nounwind
declare noalias i8* @malloc(i64 noundef) #1

; Function Attrs: nounwind
declare i8* @realloc(i8* noundef, i64 noundef) #1

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memcpy.p0i8.p0i8.i64(i8* noalias nocapture writeonly, i8* noalias nocapture readonly, i64, i1 immarg) #2

; Function Attrs: argmemonly nofree nounwind willreturn
declare void @llvm.memmove.p0i8.p0i8.i64(i8* nocapture writeonly, i8* nocapture readonly, i64, i1 immarg) #2

; Function Attrs: nounwind
declare i8* @strcpy(i8* noundef, i8* noundef) #1

; Function Attrs: nounwind
declare i64 @strtol(i8* noundef, i8** noundef, i32 noundef) #1

; Function Attrs: nounwind
declare i32 @posix_memalign(i8** noundef, i64 noundef, i64 noundef) #1

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { argmemonly nofree nounwind willreturn }
attributes #3 = { nounwind }

!llvm.module.flags = !{!0, !1, !2, !3, !4}
!llvm.ident = !{!5}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"PIC Level", i32 2}
!2 = !{i32 7, !"PIE Level", i32 2}
!3 = !{i32 7, !"uwtable", i32 1}
!4 = !{i32 7, !"frame-pointer", i32 2}
!5 = !{!"Debian clang version 14.0.6"}
