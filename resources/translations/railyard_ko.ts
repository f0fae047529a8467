<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>railyard::app::AddressesModel</name>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Address</source>
        <translation>주소</translation>
    </message>
    <message>
        <source>Prefix</source>
        <translation>프리픽스</translation>
    </message>
    <message>
        <source>Peer</source>
        <translation>피어</translation>
    </message>
    <message>
        <source>Peer address</source>
        <translation>피어 주소</translation>
    </message>
    <message>
        <source>ASN</source>
        <translation>ASN</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Plane</source>
        <translation>플레인</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>계층</translation>
    </message>
</context>
<context>
    <name>railyard::app::AdvisorDialog</name>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>RoCEv2</source>
        <translation>RoCEv2</translation>
    </message>
    <message>
        <source>None of the answers argues for it.</source>
        <translation>이를 뒷받침하는 답변이 없습니다.</translation>
    </message>
    <message>
        <source>Which fabric: InfiniBand or RoCEv2?</source>
        <translation>어떤 패브릭이 적합할까요: InfiniBand 또는 RoCEv2?</translation>
    </message>
    <message>
        <source>About the cluster and the team</source>
        <translation>클러스터와 운영 팀 정보</translation>
    </message>
    <message>
        <source>GPUs on the back-end (GPU-to-GPU) fabric. Prefilled from the current plan.</source>
        <translation>백엔드(GPU 간) 패브릭에 연결되는 GPU 수입니다. 현재 플랜 값으로 미리 채워집니다.</translation>
    </message>
    <message>
        <source>GPUs on the fabric:</source>
        <translation>패브릭의 GPU 수:</translation>
    </message>
    <message>
        <source>The team already operates Ethernet data-centre networks</source>
        <translation>팀이 이미 이더넷 데이터센터 네트워크를 운영하고 있음</translation>
    </message>
    <message>
        <source>Switch OS, monitoring, automation, spares and on-call practice for Ethernet are in place. RoCEv2 reuses all of that; InfiniBand brings a second network technology into operations.</source>
        <translation>이더넷용 스위치 OS, 모니터링, 자동화, 예비품, 온콜 체계가 갖춰져 있습니다. RoCEv2는 이를 모두 재사용하지만, InfiniBand는 운영에 두 번째 네트워크 기술을 들여오게 됩니다.</translation>
    </message>
    <message>
        <source>Someone on staff has tuned lossless Ethernet (PFC, ECN, DCQCN) in production</source>
        <translation>팀원 중 운영 환경에서 무손실 이더넷(PFC, ECN, DCQCN)을 튜닝해 본 사람이 있음</translation>
    </message>
    <message>
        <source>RoCEv2 needs priority flow control, ECN marking and DCQCN set consistently on every NIC and switch hop. InfiniBand is lossless by design and has no such settings.</source>
        <translation>RoCEv2는 모든 NIC와 스위치 홉에 PFC(우선순위 흐름 제어), ECN 마킹, DCQCN을 일관되게 설정해야 합니다. InfiniBand는 설계상 무손실이라 이런 설정이 필요 없습니다.</translation>
    </message>
    <message>
        <source>Depending on a single vendor is a concern</source>
        <translation>단일 벤더 종속이 우려됨</translation>
    </message>
    <message>
        <source>InfiniBand switches, adapters and the subnet manager come in practice from one vendor; RoCEv2 runs on Ethernet from several.</source>
        <translation>InfiniBand 스위치, 어댑터, 서브넷 매니저는 사실상 한 벤더 제품이지만, RoCEv2는 여러 벤더의 이더넷에서 동작합니다.</translation>
    </message>
    <message>
        <source>The budget is tight (cost per port weighs heavily)</source>
        <translation>예산이 빠듯함 (포트당 비용이 중요)</translation>
    </message>
    <message>
        <source>Ethernet switches and optics usually cost less per port than InfiniBand.</source>
        <translation>이더넷 스위치와 광 모듈은 보통 InfiniBand보다 포트당 비용이 낮습니다.</translation>
    </message>
    <message>
        <source>The fabric is shared (tenants, storage or front-end Ethernet)</source>
        <translation>패브릭을 공유함 (테넌트, 스토리지 또는 프런트엔드 이더넷)</translation>
    </message>
    <message>
        <source>A fabric converged with other Ethernet traffic favours RoCEv2; a dedicated back-end network suits InfiniBand.</source>
        <translation>다른 이더넷 트래픽과 통합된 패브릭에는 RoCEv2가, 전용 백엔드 네트워크에는 InfiniBand가 적합합니다.</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>적용</translation>
    </message>
    <message>
        <source>Recommended: %1</source>
        <translation>권장: %1</translation>
    </message>
    <message>
        <source>Confidence %1% (InfiniBand %2, RoCEv2 %3)</source>
        <translation>신뢰도 %1% (InfiniBand %2, RoCEv2 %3)</translation>
    </message>
    <message>
        <source>a close call: either fabric can be defended</source>
        <translation>근소한 차이: 어느 패브릭을 택해도 타당합니다</translation>
    </message>
    <message>
        <source>For %1</source>
        <translation>%1 선택 근거</translation>
    </message>
    <message>
        <source>Get right with %1</source>
        <translation>%1 선택 시 유의할 점</translation>
    </message>
    <message>
        <source>Apply: switch to %1</source>
        <translation>적용: %1(으)로 전환</translation>
    </message>
    <message>
        <source>Move the spec to %1 (%2) with the catalog&apos;s default switches</source>
        <translation>카탈로그의 기본 스위치로 스펙을 %1 (%2)(으)로 변경</translation>
    </message>
    <message>
        <source>NDR 4x</source>
        <translation>NDR 4x</translation>
    </message>
    <message>
        <source>400G Ethernet</source>
        <translation>400G 이더넷</translation>
    </message>
    <message>
        <source>The spec already uses %1</source>
        <translation>스펙이 이미 %1을(를) 사용합니다</translation>
    </message>
</context>
<context>
    <name>railyard::app::BomModel</name>
    <message>
        <source>Category</source>
        <translation>분류</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>수량</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>부품</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>품목</translation>
    </message>
    <message>
        <source>Length (m)</source>
        <translation>길이 (m)</translation>
    </message>
    <message>
        <source>Unit price (USD)</source>
        <translation>단가 (USD)</translation>
    </message>
</context>
<context>
    <name>railyard::app::CableMapModel</name>
    <message>
        <source>End A</source>
        <translation>A단</translation>
    </message>
    <message>
        <source>Cage A</source>
        <translation>A단 케이지</translation>
    </message>
    <message>
        <source>End B</source>
        <translation>B단</translation>
    </message>
    <message>
        <source>Cage B</source>
        <translation>B단 케이지</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>계층</translation>
    </message>
    <message>
        <source>Medium</source>
        <translation>매체</translation>
    </message>
    <message>
        <source>Length (m)</source>
        <translation>길이 (m)</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>부품</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>설치 여부</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>계획됨</translation>
    </message>
</context>
<context>
    <name>railyard::app::CompareView</name>
    <message>
        <source>Fabric</source>
        <translation>패브릭</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>노드</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>SUs</source>
        <translation>SU</translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation>계층 수</translation>
    </message>
    <message>
        <source>Leaf switches</source>
        <translation>리프 스위치</translation>
    </message>
    <message>
        <source>Spine switches</source>
        <translation>스파인 스위치</translation>
    </message>
    <message>
        <source>Core switches</source>
        <translation>코어 스위치</translation>
    </message>
    <message>
        <source>Node-leaf links</source>
        <translation>노드-리프 링크</translation>
    </message>
    <message>
        <source>Leaf-spine links</source>
        <translation>리프-스파인 링크</translation>
    </message>
    <message>
        <source>Spine-core links</source>
        <translation>스파인-코어 링크</translation>
    </message>
    <message>
        <source>Transceivers</source>
        <translation>트랜시버</translation>
    </message>
    <message>
        <source>Bisection</source>
        <translation>이분 대역폭</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>GPU당</translation>
    </message>
    <message>
        <source>Oversubscription (leaf, spine)</source>
        <translation>오버서브스크립션 (리프, 스파인)</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>전력</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>비용</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>Warnings</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>%1:1, %2:1</source>
        <translation>%1:1, %2:1</translation>
    </message>
    <message>
        <source>%1 kW</source>
        <translation>%1 kW</translation>
    </message>
    <message>
        <source>not priced</source>
        <translation>가격 없음</translation>
    </message>
    <message>
        <source>Untitled plan</source>
        <translation>제목 없는 플랜</translation>
    </message>
    <message numerus="yes">
        <source>%1
%n node(s)</source>
        <translation>
            <numerusform>%1
노드 %n대</numerusform>
        </translation>
    </message>
    <message>
        <source>Pin current plan</source>
        <translation>현재 플랜 고정</translation>
    </message>
    <message>
        <source>Keep the plan shown now as a column of the comparison (up to %1)</source>
        <translation>현재 표시된 플랜을 비교 열로 고정합니다 (최대 %1개)</translation>
    </message>
    <message>
        <source>Remove pin</source>
        <translation>고정 해제</translation>
    </message>
    <message>
        <source>Remove the selected column</source>
        <translation>선택한 열 제거</translation>
    </message>
    <message>
        <source>Remove all</source>
        <translation>모두 제거</translation>
    </message>
    <message>
        <source>Growth at the current design choices</source>
        <translation>현재 설계 선택 기준의 확장 추이</translation>
    </message>
    <message>
        <source>First pin: %1</source>
        <translation>첫 번째 고정: %1</translation>
    </message>
    <message>
        <source>Pin plans to compare them; cells that differ from the first pin are highlighted.</source>
        <translation>플랜을 고정해 비교하세요. 첫 번째 고정 플랜과 다른 셀은 강조 표시됩니다.</translation>
    </message>
    <message>
        <source>%1 of %2 pinned</source>
        <translation>%2개 중 %1개 고정</translation>
    </message>
    <message>
        <source>Sweep cancelled: the spec changed.</source>
        <translation>스윕 취소됨: 스펙이 변경되었습니다.</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>Cost (US$ thousands)</source>
        <translation>비용 (천 US$)</translation>
    </message>
    <message>
        <source>Power (kW)</source>
        <translation>전력 (kW)</translation>
    </message>
    <message>
        <source>Planning %1 cluster sizes...</source>
        <translation>클러스터 규모 %1가지를 계획하는 중...</translation>
    </message>
    <message numerus="yes">
        <source>%n node(s): %1</source>
        <translation>
            <numerusform>노드 %n대: %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Planned %1 of %2 cluster sizes...</source>
        <translation>클러스터 규모 %2가지 중 %1가지 계획 완료...</translation>
    </message>
    <message>
        <source>Switches and cost at %1 cluster sizes with the current design choices.</source>
        <translation>현재 설계 선택 기준, 클러스터 규모 %1가지에서의 스위치 수와 비용입니다.</translation>
    </message>
    <message>
        <source>Switches and power at %1 cluster sizes with the current design choices (some parts have no price).</source>
        <translation>현재 설계 선택 기준, 클러스터 규모 %1가지에서의 스위치 수와 전력입니다 (일부 부품은 가격이 없음).</translation>
    </message>
    <message>
        <source>Each point re-plans the current spec at another size, keeping its fabric, link, node type, switches, SU size and oversubscription.</source>
        <translation>각 지점은 패브릭, 링크, 노드 유형, 스위치, SU 크기, 오버서브스크립션을 유지한 채 현재 스펙을 다른 규모로 다시 계획한 결과입니다.</translation>
    </message>
    <message>
        <source>Not planned: %1</source>
        <translation>계획 불가: %1</translation>
    </message>
</context>
<context>
    <name>railyard::app::Export</name>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Export bill of materials</source>
        <translation>자재 명세서 내보내기</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 파일 (*.csv)</translation>
    </message>
    <message>
        <source>Excel workbooks (*.xlsx)</source>
        <translation>Excel 통합 문서 (*.xlsx)</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 파일 (*.json)</translation>
    </message>
    <message>
        <source>Export cable map</source>
        <translation>케이블 맵 내보내기</translation>
    </message>
    <message>
        <source>Export topology for ibsim</source>
        <translation>ibsim용 토폴로지 내보내기</translation>
    </message>
    <message>
        <source>ibnetdiscover topology (*.ibnet *.txt)</source>
        <translation>ibnetdiscover 토폴로지 (*.ibnet *.txt)</translation>
    </message>
    <message>
        <source>Export topology for ibdiagnet</source>
        <translation>ibdiagnet용 토폴로지 내보내기</translation>
    </message>
    <message>
        <source>ibdiagnet topology (*.topo)</source>
        <translation>ibdiagnet 토폴로지 (*.topo)</translation>
    </message>
    <message>
        <source>Choose a folder for the NetBox import files</source>
        <translation>NetBox 가져오기 파일을 저장할 폴더 선택</translation>
    </message>
    <message>
        <source>Export report</source>
        <translation>보고서 내보내기</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 파일 (*.pdf)</translation>
    </message>
    <message>
        <source>Export plan</source>
        <translation>플랜 내보내기</translation>
    </message>
    <message>
        <source>%1 describes an InfiniBand subnet; this plan is RoCEv2.</source>
        <translation>%1은(는) InfiniBand 서브넷 형식입니다. 이 플랜은 RoCEv2입니다.</translation>
    </message>
    <message>
        <source>Unknown export %1</source>
        <translation>알 수 없는 내보내기 형식: %1</translation>
    </message>
    <message>
        <source>Cannot create the folder %1</source>
        <translation>폴더 %1을(를) 만들 수 없습니다</translation>
    </message>
    <message>
        <source>Export address plan</source>
        <translation>주소 계획 내보내기</translation>
    </message>
    <message>
        <source>Choose a folder for the switch configurations</source>
        <translation>스위치 구성 파일을 저장할 폴더 선택</translation>
    </message>
    <message>
        <source>Choose a folder for the host scripts</source>
        <translation>호스트 스크립트를 저장할 폴더 선택</translation>
    </message>
</context>
<context>
    <name>railyard::app::FindingsModel</name>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>점검 결과</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
</context>
<context>
    <name>railyard::app::IntentView</name>
    <message>
        <source>Make it &amp;routed (default ranges)</source>
        <translation>라우팅 구성으로 전환 (기본 범위)(&amp;R)</translation>
    </message>
    <message>
        <source>Adds `addressing` to the spec: a /31 per link from 10.0.0.0/10, loopbacks from 10.255.0.0/16, a private AS number per leaf (eBGP)</source>
        <translation>스펙에 `addressing`을 추가합니다: 10.0.0.0/10에서 링크마다 /31, 10.255.0.0/16에서 루프백, 리프마다 사설 AS 번호(eBGP)</translation>
    </message>
    <message>
        <source>NVIDIA Cumulus (NVUE)</source>
        <translation>NVIDIA Cumulus (NVUE)</translation>
    </message>
    <message>
        <source>SONiC (config_db.json)</source>
        <translation>SONiC (config_db.json)</translation>
    </message>
    <message>
        <source>The switch operating system the configurations are written for</source>
        <translation>구성을 생성할 대상 스위치 운영 체제</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>복사(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the shown configuration (or the address plan as CSV) to the clipboard</source>
        <translation>표시된 구성(또는 CSV 형식의 주소 계획)을 클립보드에 복사합니다</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>내보내기(&amp;E)</translation>
    </message>
    <message>
        <source>Address plan (CSV)...</source>
        <translation>주소 계획 (CSV)...</translation>
    </message>
    <message>
        <source>Address plan (JSON)...</source>
        <translation>주소 계획 (JSON)...</translation>
    </message>
    <message>
        <source>Switch configurations (NVUE) to a folder...</source>
        <translation>스위치 구성 (NVUE)을 폴더로...</translation>
    </message>
    <message>
        <source>Switch configurations (SONiC) to a folder...</source>
        <translation>스위치 구성 (SONiC)을 폴더로...</translation>
    </message>
    <message>
        <source>Host scripts to a folder...</source>
        <translation>호스트 스크립트를 폴더로...</translation>
    </message>
    <message>
        <source>Switch OS:</source>
        <translation>스위치 OS:</translation>
    </message>
    <message>
        <source>Find a switch, node or address</source>
        <translation>스위치, 노드 또는 주소 찾기</translation>
    </message>
    <message>
        <source>No plan yet.</source>
        <translation>아직 플랜이 없습니다.</translation>
    </message>
    <message>
        <source>InfiniBand needs no address plan or switch configuration from here: the Subnet Manager assigns the LIDs and computes the routes. The network intent (addresses, BGP, lossless QoS, host routing) is for RoCEv2 plans.</source>
        <translation>InfiniBand에는 여기서 만드는 주소 계획이나 스위치 구성이 필요 없습니다: 서브넷 매니저가 LID를 할당하고 경로를 계산합니다. 네트워크 인텐트(주소, BGP, 무손실 QoS, 호스트 라우팅)는 RoCEv2 플랜용입니다.</translation>
    </message>
    <message>
        <source>This RoCEv2 plan is not routed: its spec has no `addressing`. A routed (L3) fabric gives every link a /31 (or every leaf a subnet for its NICs), every switch a loopback and an AS number for eBGP, and from them Railyard generates each switch&apos;s configuration (addresses, BGP, the lossless QoS of the plan) and each node&apos;s host script (addresses, source routing per NIC, ARP and rp_filter, mlnx_qos, ECN/DCQCN, NCCL environment).</source>
        <translation>이 RoCEv2 플랜은 라우팅 구성이 아닙니다: 스펙에 `addressing`이 없습니다. 라우팅(L3) 패브릭은 모든 링크에 /31(또는 리프마다 NIC용 서브넷)을, 모든 스위치에 루프백과 eBGP용 AS 번호를 부여하며, Railyard는 이를 바탕으로 각 스위치의 구성(주소, BGP, 플랜의 무손실 QoS)과 각 노드의 호스트 스크립트(주소, NIC별 소스 라우팅, ARP와 rp_filter, mlnx_qos, ECN/DCQCN, NCCL 환경 변수)를 생성합니다.</translation>
    </message>
    <message>
        <source>Assigning addresses...</source>
        <translation>주소를 할당하는 중...</translation>
    </message>
    <message>
        <source>The address plan cannot be made:
%1

Widen the range in the spec&apos;s `addressing`.</source>
        <translation>주소 계획을 만들 수 없습니다:
%1

스펙의 `addressing`에서 범위를 넓히세요.</translation>
    </message>
    <message>
        <source>Routed RoCEv2, %1: %2 links from %3, %4 loopbacks from %5, AS numbers %6 from %7; %8 NIC ports.</source>
        <translation>라우팅 RoCEv2, %1: %3에서 링크 %2개, %5에서 루프백 %4개, AS 번호 %6 (%7부터); NIC 포트 %8개.</translation>
    </message>
    <message>
        <source>Address plan</source>
        <translation>주소 계획</translation>
    </message>
    <message>
        <source>Switches (%1)</source>
        <translation>스위치 (%1)</translation>
    </message>
    <message>
        <source>Hosts (%1)</source>
        <translation>호스트 (%1)</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveBusbwChart</name>
    <message>
        <source>message size (B)</source>
        <translation>메시지 크기 (B)</translation>
    </message>
    <message>
        <source>busbw (GB/s)</source>
        <translation>busbw (GB/s)</translation>
    </message>
    <message>
        <source>plan&apos;s bound</source>
        <translation>계획 상한</translation>
    </message>
    <message>
        <source>busbw, all rails</source>
        <translation>busbw, 모든 레일</translation>
    </message>
    <message>
        <source>busbw, rail %1</source>
        <translation>busbw, 레일 %1</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveConnectDialog</name>
    <message>
        <source>Browse...</source>
        <translation>찾아보기...</translation>
    </message>
    <message>
        <source>optional</source>
        <translation>선택 사항</translation>
    </message>
    <message>
        <source>Connect to the agents of a hostfile</source>
        <translation>호스트 파일의 에이전트에 연결</translation>
    </message>
    <message>
        <source>one host per line: node001, or node001 slots=8</source>
        <translation>한 줄에 호스트 하나: node001 또는 node001 slots=8</translation>
    </message>
    <message>
        <source>&amp;Hostfile:</source>
        <translation>호스트 파일(&amp;H):</translation>
    </message>
    <message>
        <source>Hostfile</source>
        <translation>호스트 파일</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>모든 파일 (*)</translation>
    </message>
    <message>
        <source>The port every railyard-agent listens on (its --listen; 9473 by default)</source>
        <translation>모든 railyard-agent가 수신 대기하는 포트 (--listen 값, 기본값 9473)</translation>
    </message>
    <message>
        <source>Agent &amp;port:</source>
        <translation>에이전트 포트(&amp;P):</translation>
    </message>
    <message>
        <source>Read the fabric from Prometheus</source>
        <translation>Prometheus에서 패브릭 읽기</translation>
    </message>
    <message>
        <source>Server &amp;URL:</source>
        <translation>서버 URL(&amp;U):</translation>
    </message>
    <message>
        <source>railyard (the agents&apos; railyard_* series)</source>
        <translation>railyard (에이전트의 railyard_* 시계열)</translation>
    </message>
    <message>
        <source>node-exporter (node_infiniband_*: no ECN, PFC)</source>
        <translation>node-exporter (node_infiniband_*: ECN, PFC 없음)</translation>
    </message>
    <message>
        <source>&amp;Metrics:</source>
        <translation>메트릭(&amp;M):</translation>
    </message>
    <message>
        <source>&amp;Selector:</source>
        <translation>선택자(&amp;S):</translation>
    </message>
    <message>
        <source>&amp;Token file:</source>
        <translation>토큰 파일(&amp;T):</translation>
    </message>
    <message>
        <source>Token file</source>
        <translation>토큰 파일</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>연결</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveFabricView</name>
    <message>
        <source>leaf</source>
        <translation>리프</translation>
    </message>
    <message>
        <source>spine</source>
        <translation>스파인</translation>
    </message>
    <message>
        <source>core</source>
        <translation>코어</translation>
    </message>
    <message>
        <source>no rates yet</source>
        <translation>아직 속도 없음</translation>
    </message>
    <message>
        <source>healthy</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>congested</source>
        <translation>혼잡</translation>
    </message>
    <message>
        <source>pausing (PFC)</source>
        <translation>일시 정지 중 (PFC)</translation>
    </message>
    <message>
        <source>erroring</source>
        <translation>오류 발생</translation>
    </message>
    <message>
        <source>SU %1</source>
        <translation>SU %1</translation>
    </message>
    <message>
        <source>SU %1.%2</source>
        <translation>SU %1.%2</translation>
    </message>
    <message>
        <source>p%1 r%2</source>
        <translation>p%1 r%2</translation>
    </message>
    <message>
        <source>r%1</source>
        <translation>r%1</translation>
    </message>
    <message>
        <source>Spines</source>
        <translation>스파인</translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>코어</translation>
    </message>
    <message>
        <source>, SU %1</source>
        <translation>, SU %1</translation>
    </message>
    <message>
        <source>, rail %1</source>
        <translation>, 레일 %1</translation>
    </message>
    <message>
        <source>, plane %1</source>
        <translation>, 플레인 %1</translation>
    </message>
    <message>
        <source>, pod %1</source>
        <translation>, 포드 %1</translation>
    </message>
    <message>
        <source>%1 host port(s) below; %2 uplink(s) to %3 switch(es) above (%4 Gb/s)</source>
        <translation>아래 호스트 포트 %1개; 위 스위치 %3대로 업링크 %2개 (%4 Gb/s)</translation>
    </message>
    <message>
        <source>No rates yet from its hosts&apos; ports.</source>
        <translation>호스트 포트의 속도가 아직 없습니다.</translation>
    </message>
    <message>
        <source>Verdict: %1</source>
        <translation>판정: %1</translation>
    </message>
    <message>
        <source>Its %1 host port(s) send %2 Gb/s into it and receive %3 Gb/s</source>
        <translation>호스트 포트 %1개가 이 스위치로 %2 Gb/s를 송신하고 %3 Gb/s를 수신합니다</translation>
    </message>
    <message>
        <source>= %1 % of its uplink capacity (what can leave the leaf; the uplinks&apos; own counters are not read here)</source>
        <translation>= 업링크 용량의 %1 % (리프에서 나갈 수 있는 양; 업링크 자체의 카운터는 여기서 읽지 않음)</translation>
    </message>
    <message>
        <source>= %1 % of its host ports&apos; line rate (no uplinks: one leaf per rail)</source>
        <translation>= 호스트 포트 회선 속도의 %1 % (업링크 없음: 레일당 리프 하나)</translation>
    </message>
    <message>
        <source>XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s, link errors %5</source>
        <translation>XmitWait %1/s, ECN 표시 %2/s, CNP %3/s, PFC 일시 정지 %4/s, 링크 오류 %5</translation>
    </message>
    <message>
        <source>%1 link(s) down to %2 switch(es); %3 link(s) up to %4</source>
        <translation>아래 스위치 %2대로 링크 %1개; 위 스위치 %4대로 링크 %3개</translation>
    </message>
    <message>
        <source>Unhealthy leaves below: %1</source>
        <translation>아래의 비정상 리프: %1</translation>
    </message>
    <message>
        <source>Its own ports&apos; load needs the switch counters (live watch --switches); the hosts&apos; agents do not see it.</source>
        <translation>이 스위치 자체 포트의 부하를 보려면 스위치 카운터가 필요합니다 (live watch --switches). 호스트의 에이전트로는 볼 수 없습니다.</translation>
    </message>
    <message>
        <source>&lt;p&gt;Click a switch in the leaf/spine view to see its ports and findings.&lt;/p&gt;</source>
        <translation>&lt;p&gt;리프/스파인 보기에서 스위치를 클릭하면 포트와 발견 사항이 표시됩니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;... and %1 more.&lt;/p&gt;</source>
        <translation>&lt;p&gt;... 외 %1개.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Below (%1 ports)</source>
        <translation>아래 (포트 %1개)</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>포트</translation>
    </message>
    <message>
        <source>Cabled to</source>
        <translation>연결 대상</translation>
    </message>
    <message>
        <source>Tx Gb/s</source>
        <translation>송신 Gb/s</translation>
    </message>
    <message>
        <source>Rx Gb/s</source>
        <translation>수신 Gb/s</translation>
    </message>
    <message>
        <source>Above (%1 uplinks)</source>
        <translation>위 (업링크 %1개)</translation>
    </message>
    <message>
        <source>Line Gb/s</source>
        <translation>회선 Gb/s</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>발견 사항</translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this switch.&lt;/p&gt;</source>
        <translation>&lt;p&gt;이 스위치에 대한 발견 사항이 없습니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>The plan has no switches to show yet.</source>
        <translation>계획에 아직 표시할 스위치가 없습니다.</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>유휴</translation>
    </message>
    <message>
        <source>hosts&apos; traffic at the uplinks&apos; capacity</source>
        <translation>호스트 트래픽이 업링크 용량에 도달</translation>
    </message>
    <message>
        <source>congested or pausing</source>
        <translation>혼잡 또는 일시 정지</translation>
    </message>
    <message>
        <source>no rates</source>
        <translation>속도 없음</translation>
    </message>
    <message>
        <source>%1 switch pairs: links drawn for the selected switch and unhealthy leaves</source>
        <translation>스위치 쌍 %1개: 선택한 스위치와 비정상 리프의 링크만 표시</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveFindingsModel</name>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>출처</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>발견 사항</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>check</source>
        <translation>점검</translation>
    </message>
    <message>
        <source>congestion</source>
        <translation>혼잡</translation>
    </message>
    <message>
        <source>connection</source>
        <translation>연결</translation>
    </message>
    <message>
        <source>test</source>
        <translation>테스트</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveGrid</name>
    <message>
        <source>, rail %1</source>
        <translation>, 레일 %1</translation>
    </message>
    <message>
        <source>Agent: %1</source>
        <translation>에이전트: %1</translation>
    </message>
    <message>
        <source> (%1 ms)</source>
        <translation> (%1 ms)</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>마지막 오류: %1</translation>
    </message>
    <message>
        <source>Port: %1 port %2, leaf %3</source>
        <translation>포트: %1 포트 %2, 리프 %3</translation>
    </message>
    <message>
        <source>No rates yet for this port.</source>
        <translation>이 포트의 속도가 아직 없습니다.</translation>
    </message>
    <message>
        <source>Sent %1 Gb/s (%2 % of %3), received %4 Gb/s</source>
        <translation>송신 %1 Gb/s (%3의 %2 %), 수신 %4 Gb/s</translation>
    </message>
    <message>
        <source>XmitWait %1/s, ECN marks %2/s, CNPs %3/s, PFC pauses %4/s</source>
        <translation>XmitWait %1/s, ECN 표시 %2/s, CNP %3/s, PFC 일시 정지 %4/s</translation>
    </message>
    <message>
        <source>Link errors this interval: %1</source>
        <translation>이번 구간의 링크 오류: %1</translation>
    </message>
    <message>
        <source>Check: error findings here</source>
        <translation>점검: 여기에 오류 발견 사항이 있습니다</translation>
    </message>
    <message>
        <source>Check: warnings here</source>
        <translation>점검: 여기에 경고가 있습니다</translation>
    </message>
    <message>
        <source>Not connected. Press Demo fabric to emulate the current plan, or open the agents.json of a fabric.</source>
        <translation>연결되지 않았습니다. 데모 패브릭을 눌러 현재 계획을 에뮬레이션하거나 패브릭의 agents.json을 여십시오.</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveHistoryModel</name>
    <message>
        <source>incomplete</source>
        <translation>미완료</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>errors found</source>
        <translation>오류 발견</translation>
    </message>
    <message>
        <source>failed (%1)</source>
        <translation>실패 (%1)</translation>
    </message>
    <message>
        <source>Not stored yet: open or save a project to keep it</source>
        <translation>아직 저장되지 않음: 보관하려면 프로젝트를 열거나 저장하십시오</translation>
    </message>
    <message>
        <source> (not stored)</source>
        <translation> (저장 안 됨)</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>시각</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>요약</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveHistoryPage</name>
    <message>
        <source>Save project...</source>
        <translation>프로젝트 저장...</translation>
    </message>
    <message>
        <source>Save the project: this session&apos;s runs are stored in it, and every run after</source>
        <translation>프로젝트를 저장합니다: 이 세션의 실행과 이후의 모든 실행이 프로젝트에 저장됩니다</translation>
    </message>
    <message>
        <source>Open</source>
        <translation>열기</translation>
    </message>
    <message>
        <source>Show the selected run&apos;s result page</source>
        <translation>선택한 실행의 결과 페이지를 표시합니다</translation>
    </message>
    <message>
        <source>Compare two</source>
        <translation>두 개 비교</translation>
    </message>
    <message>
        <source>Select two runs of the same kind (before and after a change) and compare them</source>
        <translation>같은 종류의 실행 두 개(변경 전과 후)를 선택해 비교합니다</translation>
    </message>
    <message>
        <source>Export CSV...</source>
        <translation>CSV 내보내기...</translation>
    </message>
    <message>
        <source>Export JSON...</source>
        <translation>JSON 내보내기...</translation>
    </message>
    <message>
        <source>Bring-up report (PDF)...</source>
        <translation>구축 보고서 (PDF)...</translation>
    </message>
    <message>
        <source>The plan, the fabric&apos;s status, the last check and this session&apos;s tests</source>
        <translation>계획, 패브릭 상태, 마지막 점검, 이 세션의 테스트</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>A</source>
        <translation>A</translation>
    </message>
    <message>
        <source>B</source>
        <translation>B</translation>
    </message>
    <message>
        <source>Change %</source>
        <translation>변화 %</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>예상값</translation>
    </message>
    <message>
        <source>Only in A</source>
        <translation>A에만 있음</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Finding</source>
        <translation>발견 사항</translation>
    </message>
    <message>
        <source>Only in B</source>
        <translation>B에만 있음</translation>
    </message>
    <message>
        <source>No project is open: this session&apos;s runs are listed but not stored. Save the project to keep them.</source>
        <translation>열린 프로젝트가 없습니다: 이 세션의 실행은 목록에만 있고 저장되지 않습니다. 보관하려면 프로젝트를 저장하십시오.</translation>
    </message>
    <message>
        <source>Runs stored in %1 (railyard-cli results list --project shows the same).</source>
        <translation>%1에 저장된 실행 (railyard-cli results list --project 명령으로도 같은 내용을 볼 수 있습니다).</translation>
    </message>
    <message>
        <source>The project&apos;s runs could not be read: %1</source>
        <translation>프로젝트의 실행 기록을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Select a run in the list first.</source>
        <translation>먼저 목록에서 실행을 선택하십시오.</translation>
    </message>
    <message>
        <source>A %1 run and a %2 run measure different things: select two runs of the same kind.</source>
        <translation>%1 실행과 %2 실행은 서로 다른 것을 측정합니다: 같은 종류의 실행 두 개를 선택하십시오.</translation>
    </message>
    <message>
        <source>&lt;b&gt;A&lt;/b&gt;: %1 %2 (%3) &amp;nbsp; &lt;b&gt;B&lt;/b&gt;: %4 %5 (%6) &amp;nbsp; measured in %7</source>
        <translation>&lt;b&gt;A&lt;/b&gt;: %1 %2 (%3) &amp;nbsp; &lt;b&gt;B&lt;/b&gt;: %4 %5 (%6) &amp;nbsp; 측정 단위: %7</translation>
    </message>
    <message>
        <source>Select exactly two runs (Ctrl+click) to compare them.</source>
        <translation>비교하려면 실행을 정확히 두 개 선택하십시오 (Ctrl+클릭).</translation>
    </message>
    <message>
        <source>Select the run to export first.</source>
        <translation>먼저 내보낼 실행을 선택하십시오.</translation>
    </message>
    <message>
        <source>Export results as CSV</source>
        <translation>결과를 CSV로 내보내기</translation>
    </message>
    <message>
        <source>Export results as JSON</source>
        <translation>결과를 JSON으로 내보내기</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 파일 (*.csv)</translation>
    </message>
    <message>
        <source>JSON files (*.json)</source>
        <translation>JSON 파일 (*.json)</translation>
    </message>
    <message>
        <source>Wrote %1.</source>
        <translation>%1을(를) 저장했습니다.</translation>
    </message>
    <message>
        <source>Export the bring-up report</source>
        <translation>구축 보고서 내보내기</translation>
    </message>
    <message>
        <source>PDF files (*.pdf)</source>
        <translation>PDF 파일 (*.pdf)</translation>
    </message>
    <message>
        <source>Writing %1...</source>
        <translation>%1을(를) 쓰는 중...</translation>
    </message>
    <message>
        <source>Wrote the bring-up report to %1.</source>
        <translation>구축 보고서를 %1에 저장했습니다.</translation>
    </message>
    <message>
        <source>Reading the run...</source>
        <translation>실행 기록을 읽는 중...</translation>
    </message>
    <message>
        <source>Reading the two runs...</source>
        <translation>두 실행 기록을 읽는 중...</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveNodePanel</name>
    <message>
        <source>&lt;p&gt;Click a node in the grid to see its ports, counters and findings.&lt;/p&gt;</source>
        <translation>&lt;p&gt;그리드에서 노드를 클릭하면 포트, 카운터, 발견 사항이 표시됩니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Agent %1: %2</source>
        <translation>에이전트 %1: %2</translation>
    </message>
    <message>
        <source>, answered in %1 ms</source>
        <translation>, %1 ms 만에 응답</translation>
    </message>
    <message>
        <source>Last error: %1</source>
        <translation>마지막 오류: %1</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>NIC</translation>
    </message>
    <message>
        <source>Tx Gb/s</source>
        <translation>송신 Gb/s</translation>
    </message>
    <message>
        <source>Rx Gb/s</source>
        <translation>수신 Gb/s</translation>
    </message>
    <message>
        <source>Wait/s</source>
        <translation>대기/s</translation>
    </message>
    <message>
        <source>ECN/s</source>
        <translation>ECN/s</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>CNPs %1/s, PFC pauses %2/s</source>
        <translation>CNP %1/s, PFC 일시 정지 %2/s</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>발견 사항</translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this node (run the live check, F5, to read its inventory).&lt;/p&gt;</source>
        <translation>&lt;p&gt;이 노드에 대한 발견 사항이 없습니다 (인벤토리를 읽으려면 라이브 점검, F5를 실행하십시오).&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&lt;p&gt;None about this node.&lt;/p&gt;</source>
        <translation>&lt;p&gt;이 노드에 대한 발견 사항이 없습니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Reading notes</source>
        <translation>읽기 참고 사항</translation>
    </message>
    <message>
        <source>What the last check could not read on this node:</source>
        <translation>마지막 점검에서 이 노드에서 읽지 못한 것:</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveNodesModel</name>
    <message>
        <source>Node</source>
        <translation>노드</translation>
    </message>
    <message>
        <source>Agent</source>
        <translation>에이전트</translation>
    </message>
    <message>
        <source>Answer (ms)</source>
        <translation>응답 (ms)</translation>
    </message>
    <message>
        <source>Last error</source>
        <translation>마지막 오류</translation>
    </message>
    <message>
        <source>waiting</source>
        <translation>대기 중</translation>
    </message>
    <message>
        <source>connected</source>
        <translation>연결됨</translation>
    </message>
    <message>
        <source>slow</source>
        <translation>느림</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>끊김</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveRailChart</name>
    <message>
        <source>%.0f s</source>
        <translation>%.0f초</translation>
    </message>
    <message>
        <source>Gb/s per port</source>
        <translation>포트당 Gb/s</translation>
    </message>
    <message>
        <source>per second</source>
        <translation>초당</translation>
    </message>
    <message>
        <source>Each rail&apos;s mean throughput per port: sent solid, received dashed; the plan&apos;s line rate dashed grey</source>
        <translation>각 레일의 포트당 평균 처리량: 송신은 실선, 수신은 점선, 계획의 회선 속도는 회색 점선</translation>
    </message>
    <message>
        <source>Each rail&apos;s congestion signals, summed over its ports</source>
        <translation>각 레일의 혼잡 신호 (포트 합계)</translation>
    </message>
    <message>
        <source>ECN marks, PFC pauses /s</source>
        <translation>ECN 표시, PFC 일시 정지 /s</translation>
    </message>
    <message>
        <source>XmitWait ticks/s</source>
        <translation>XmitWait 틱/s</translation>
    </message>
    <message>
        <source>rail %1</source>
        <translation>레일 %1</translation>
    </message>
    <message>
        <source>line rate</source>
        <translation>회선 속도</translation>
    </message>
    <message>
        <source>Scroll back through the samples kept; at the right end the chart follows the newest. The mouse wheel on the chart zooms.</source>
        <translation>보관된 샘플을 거슬러 스크롤합니다. 오른쪽 끝에서는 차트가 최신 샘플을 따라갑니다. 차트 위에서 마우스 휠로 확대/축소합니다.</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveReport</name>
    <message>
        <source>No findings.</source>
        <translation>발견 사항이 없습니다.</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Finding and what to do</source>
        <translation>발견 사항과 조치 방법</translation>
    </message>
    <message>
        <source>Fabric status</source>
        <translation>패브릭 상태</translation>
    </message>
    <message>
        <source>Not connected when the report was written.</source>
        <translation>보고서 작성 시 연결되어 있지 않았습니다.</translation>
    </message>
    <message>
        <source>%1: %2 node(s), %3 connected, %4 slow, %5 lost; %6 rail(s) at %7 Gb/s per port in the plan.</source>
        <translation>%1: 노드 %2개, 연결됨 %3, 느림 %4, 끊김 %5; 계획상 레일 %6개, 포트당 %7 Gb/s.</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Ports</source>
        <translation>포트</translation>
    </message>
    <message>
        <source>Tx Gb/s per port</source>
        <translation>포트당 송신 Gb/s</translation>
    </message>
    <message>
        <source>Rx Gb/s per port</source>
        <translation>포트당 수신 Gb/s</translation>
    </message>
    <message>
        <source>%1 lost: %2</source>
        <translation>%1 끊김: %2</translation>
    </message>
    <message>
        <source>%1, %2</source>
        <translation>%1, %2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>% of bound</source>
        <translation>상한 대비 %</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Railyard bring-up report, %1</source>
        <translation>Railyard 구축 보고서, %1</translation>
    </message>
    <message>
        <source>Last live check</source>
        <translation>마지막 라이브 점검</translation>
    </message>
    <message>
        <source>No live check was run in this session.</source>
        <translation>이 세션에서는 라이브 점검을 실행하지 않았습니다.</translation>
    </message>
    <message>
        <source>Tests</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>No bandwidth or all-reduce test was run in this session.</source>
        <translation>이 세션에서는 대역폭 테스트나 all-reduce 테스트를 실행하지 않았습니다.</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Bring-up of %1</source>
        <translation>%1 구축</translation>
    </message>
    <message>
        <source>Bring-up report</source>
        <translation>구축 보고서</translation>
    </message>
    <message>
        <source>What the nodes&apos; sysfs or outputs did not give:</source>
        <translation>노드의 sysfs나 출력에서 얻지 못한 것:</translation>
    </message>
    <message>
        <source>%1 more</source>
        <translation>외 %1개</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveSession</name>
    <message>
        <source>There is no plan to emulate yet: wait for the planner to finish, or fix the spec&apos;s errors.</source>
        <translation>아직 에뮬레이션할 계획이 없습니다: 플래너가 끝날 때까지 기다리거나 사양의 오류를 고치십시오.</translation>
    </message>
    <message>
        <source>demo fabric</source>
        <translation>데모 패브릭</translation>
    </message>
    <message>
        <source>The demo fabric could not update its counters: %1</source>
        <translation>데모 패브릭이 카운터를 갱신하지 못했습니다: %1</translation>
    </message>
    <message>
        <source>The demo fabric did not start: %1</source>
        <translation>데모 패브릭이 시작되지 않았습니다: %1</translation>
    </message>
    <message>
        <source>There is no plan to compare the fabric with yet: wait for the planner to finish.</source>
        <translation>아직 패브릭과 비교할 계획이 없습니다: 플래너가 끝날 때까지 기다리십시오.</translation>
    </message>
    <message>
        <source>Cannot use %1: %2</source>
        <translation>%1을(를) 사용할 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Cannot read the agents&apos; token: %1</source>
        <translation>에이전트 토큰을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Faults can be injected into a demo fabric only: connect to one first (Live &gt; Demo fabric).</source>
        <translation>장애는 데모 패브릭에만 주입할 수 있습니다: 먼저 연결하십시오 (라이브 &gt; 데모 패브릭).</translation>
    </message>
    <message>
        <source>The fault cannot be injected: %1</source>
        <translation>장애를 주입할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>no fault given</source>
        <translation>지정된 장애가 없습니다</translation>
    </message>
    <message>
        <source>The fault %1 was not injected: %2</source>
        <translation>장애 %1이(가) 주입되지 않았습니다: %2</translation>
    </message>
    <message>
        <source>Agents can be stopped and started in a demo fabric only.</source>
        <translation>에이전트는 데모 패브릭에서만 중지하고 시작할 수 있습니다.</translation>
    </message>
    <message>
        <source>Nothing to check: connect to a demo fabric or to an agents.json first.</source>
        <translation>점검할 대상이 없습니다: 먼저 데모 패브릭이나 agents.json에 연결하십시오.</translation>
    </message>
    <message>
        <source>Reading inventories: %1 of %2 nodes</source>
        <translation>인벤토리 읽는 중: 노드 %2개 중 %1개</translation>
    </message>
    <message>
        <source>Cannot read the token for Prometheus: %1</source>
        <translation>Prometheus용 토큰을 읽을 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Cannot read from Prometheus at %1: %2</source>
        <translation>%1의 Prometheus에서 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Prometheus at %1</source>
        <translation>%1의 Prometheus</translation>
    </message>
    <message>
        <source>Nothing to test: connect to a demo fabric or to an agents.json first.</source>
        <translation>테스트할 대상이 없습니다: 먼저 데모 패브릭이나 agents.json에 연결하십시오.</translation>
    </message>
    <message>
        <source>A test is running: stop it first (Shift+F6).</source>
        <translation>테스트가 실행 중입니다: 먼저 중지하십시오 (Shift+F6).</translation>
    </message>
    <message>
        <source>Tests cannot run on this demo fabric: %1</source>
        <translation>이 데모 패브릭에서는 테스트를 실행할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>%1 is not a node of this fabric&apos;s agents: name plan nodes (node001, ...), or leave the list empty for all.</source>
        <translation>%1은(는) 이 패브릭 에이전트의 노드가 아닙니다: 계획의 노드 이름(node001, ...)을 지정하거나, 모든 노드를 대상으로 하려면 목록을 비워 두십시오.</translation>
    </message>
    <message>
        <source> on rail %1</source>
        <translation> (레일 %1)</translation>
    </message>
    <message>
        <source>%1 of %2 tests done</source>
        <translation>테스트 %2개 중 %1개 완료</translation>
    </message>
    <message>
        <source>The run was not stored in the project: %1</source>
        <translation>실행이 프로젝트에 저장되지 않았습니다: %1</translation>
    </message>
    <message>
        <source>Unknown test kind %1: choose allreduce, allgather, reduce_scatter, write_bw or read_bw.</source>
        <translation>알 수 없는 테스트 종류 %1: allreduce, allgather, reduce_scatter, write_bw, read_bw 중에서 고르십시오.</translation>
    </message>
    <message>
        <source>Sizes: %1</source>
        <translation>크기: %1</translation>
    </message>
    <message>
        <source>Sizes: from %1 to %2 is not a range of sizes: give a first size above 0 and a last size at least as large.</source>
        <translation>크기: %1부터 %2까지는 크기 범위가 아닙니다. 0보다 큰 첫 크기와 그보다 작지 않은 마지막 크기를 지정하십시오.</translation>
    </message>
    <message>
        <source>Iterations: give at least 1.</source>
        <translation>반복 횟수: 1 이상을 지정하십시오.</translation>
    </message>
    <message>
        <source>Message size: %1 is not a perftest size (1 B to 2 GiB - 1).</source>
        <translation>메시지 크기: %1은(는) perftest가 받는 크기가 아닙니다(1 B ~ 2 GiB - 1).</translation>
    </message>
    <message>
        <source>%1%2: %3 B, busbw %4 GB/s</source>
        <translation>%1%2: %3 B, busbw %4 GB/s</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveTestPage</name>
    <message>
        <source>Run &amp;test</source>
        <translation>테스트 실행(&amp;T)</translation>
    </message>
    <message>
        <source>Run the chosen test on the nodes (F6)</source>
        <translation>선택한 테스트를 노드에서 실행합니다 (F6)</translation>
    </message>
    <message>
        <source>&amp;Stop test</source>
        <translation>테스트 중지(&amp;S)</translation>
    </message>
    <message>
        <source>End the test on every node; what was measured is kept (Shift+F6)</source>
        <translation>모든 노드에서 테스트를 끝냅니다. 측정된 결과는 유지됩니다 (Shift+F6)</translation>
    </message>
    <message>
        <source>All-reduce (nccl-tests)</source>
        <translation>All-reduce (nccl-tests)</translation>
    </message>
    <message>
        <source>GPUDirect bandwidth per rail (ib_write_bw)</source>
        <translation>레일별 GPUDirect 대역폭 (ib_write_bw)</translation>
    </message>
    <message>
        <source>Nodes: node001,node002,... (empty: every node)</source>
        <translation>노드: node001,node002,... (비우면 모든 노드)</translation>
    </message>
    <message>
        <source>One run per rail</source>
        <translation>레일마다 한 번씩 실행</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Gb/s</source>
        <translation>Gb/s</translation>
    </message>
    <message>
        <source>Plan&apos;s bound</source>
        <translation>계획 상한</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Connect to a fabric, then run a test: an all-reduce across the nodes, or every rail&apos;s GPUDirect bandwidth pair by pair.</source>
        <translation>패브릭에 연결한 다음 테스트를 실행하십시오: 노드 전체의 all-reduce 또는 모든 레일의 GPUDirect 대역폭(쌍별 측정).</translation>
    </message>
    <message>
        <source>Bandwidth test: starting the first round...</source>
        <translation>대역폭 테스트: 첫 번째 라운드를 시작하는 중...</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>실패</translation>
    </message>
    <message>
        <source>low</source>
        <translation>낮음</translation>
    </message>
    <message>
        <source>ok</source>
        <translation>정상</translation>
    </message>
    <message>
        <source>%1 finished: %2</source>
        <translation>%1 완료: %2</translation>
    </message>
    <message>
        <source>All-gather (nccl-tests)</source>
        <translation>All-gather (nccl-tests)</translation>
    </message>
    <message>
        <source>Reduce-scatter (nccl-tests)</source>
        <translation>Reduce-scatter (nccl-tests)</translation>
    </message>
    <message>
        <source>GPUDirect read bandwidth per rail (ib_read_bw)</source>
        <translation>레일별 GPUDirect 읽기 대역폭 (ib_read_bw)</translation>
    </message>
    <message>
        <source>Collectives: NCCL_IB_HCA set to one rail&apos;s NIC per run, a verdict per rail</source>
        <translation>집합 통신: 실행마다 NCCL_IB_HCA를 한 레일의 NIC로 설정하고, 레일마다 판정</translation>
    </message>
    <message>
        <source>The first message size (nccl-tests -b): bytes, or with K, M or G</source>
        <translation>첫 메시지 크기(nccl-tests -b): 바이트 수, 또는 K, M, G를 붙여서</translation>
    </message>
    <message>
        <source>The last message size (nccl-tests -e); each size is 4 times the one before</source>
        <translation>마지막 메시지 크기(nccl-tests -e). 각 크기는 앞 크기의 4배</translation>
    </message>
    <message>
        <source>The message size of every test (perftest -s): bytes, or with K, M or G</source>
        <translation>모든 테스트의 메시지 크기(perftest -s): 바이트 수, 또는 K, M, G를 붙여서</translation>
    </message>
    <message>
        <source>Iterations per message size (nccl-tests -n)</source>
        <translation>메시지 크기당 반복 횟수(nccl-tests -n)</translation>
    </message>
    <message>
        <source>&amp;Sizes</source>
        <translation>크기(&amp;S)</translation>
    </message>
    <message>
        <source>to</source>
        <translation>~</translation>
    </message>
    <message>
        <source>&amp;Iterations</source>
        <translation>반복(&amp;I)</translation>
    </message>
    <message>
        <source>Message si&amp;ze</source>
        <translation>메시지 크기(&amp;Z)</translation>
    </message>
    <message>
        <source>%1: starting mpirun through the first node&apos;s agent...</source>
        <translation>%1: 첫 번째 노드의 에이전트를 통해 mpirun을 시작하는 중...</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveTestResultView</name>
    <message>
        <source>Test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Measured</source>
        <translation>측정값</translation>
    </message>
    <message>
        <source>Expected</source>
        <translation>예상값</translation>
    </message>
    <message>
        <source>% of bound</source>
        <translation>상한 대비 %</translation>
    </message>
    <message>
        <source>Verdict</source>
        <translation>판정</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Finding and what to do</source>
        <translation>발견 사항과 조치 방법</translation>
    </message>
    <message>
        <source>No run shown: run a test, or open one in History.</source>
        <translation>표시된 실행이 없습니다: 테스트를 실행하거나 기록에서 실행을 여십시오.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; on %2, %3: %4 &lt;i&gt;(%5)&lt;/i&gt;</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; (%2, %3): %4 &lt;i&gt;(%5)&lt;/i&gt;</translation>
    </message>
    <message>
        <source> &amp;mdash; run %1 of the project</source>
        <translation> &amp;mdash; 프로젝트의 실행 %1</translation>
    </message>
    <message>
        <source>%1 nodes: %2, ...</source>
        <translation>노드 %1개: %2, ...</translation>
    </message>
    <message>
        <source>note</source>
        <translation>참고</translation>
    </message>
</context>
<context>
    <name>railyard::app::LiveWorkspace</name>
    <message>
        <source>Throughput</source>
        <translation>처리량</translation>
    </message>
    <message>
        <source>Congestion</source>
        <translation>혼잡</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>발견 사항</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>노드</translation>
    </message>
    <message>
        <source>Live check: reading every node&apos;s inventory...</source>
        <translation>라이브 점검: 모든 노드의 인벤토리를 읽는 중...</translation>
    </message>
    <message>
        <source>; some nodes could not be read</source>
        <translation>; 일부 노드를 읽을 수 없었습니다</translation>
    </message>
    <message>
        <source>Live check cancelled.</source>
        <translation>라이브 점검이 취소되었습니다.</translation>
    </message>
    <message>
        <source>Injected %1; checking the fabric again...</source>
        <translation>%1 주입함; 패브릭을 다시 점검하는 중...</translation>
    </message>
    <message>
        <source>&amp;Demo fabric</source>
        <translation>데모 패브릭(&amp;D)</translation>
    </message>
    <message>
        <source>Emulate the current plan on this machine and connect to its agents (Ctrl+Shift+D)</source>
        <translation>이 컴퓨터에서 현재 계획을 에뮬레이션하고 에이전트에 연결합니다 (Ctrl+Shift+D)</translation>
    </message>
    <message>
        <source>&amp;Agents file...</source>
        <translation>에이전트 파일(&amp;A)...</translation>
    </message>
    <message>
        <source>Connect to the agents listed in an agents.json (Ctrl+Shift+A)</source>
        <translation>agents.json에 나열된 에이전트에 연결합니다 (Ctrl+Shift+A)</translation>
    </message>
    <message>
        <source>Dis&amp;connect</source>
        <translation>연결 끊기(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Pause charts</source>
        <translation>차트 일시 정지(&amp;P)</translation>
    </message>
    <message>
        <source>Freeze the charts; sampling goes on (Ctrl+Shift+P)</source>
        <translation>차트를 멈춥니다. 샘플링은 계속됩니다 (Ctrl+Shift+P)</translation>
    </message>
    <message>
        <source>Run live &amp;check</source>
        <translation>라이브 점검 실행(&amp;C)</translation>
    </message>
    <message>
        <source>Compare every node&apos;s inventory with the plan (F5)</source>
        <translation>모든 노드의 인벤토리를 계획과 비교합니다 (F5)</translation>
    </message>
    <message>
        <source>Cancel check</source>
        <translation>점검 취소</translation>
    </message>
    <message>
        <source>Inject &amp;fault</source>
        <translation>장애 주입(&amp;F)</translation>
    </message>
    <message>
        <source>Into the demo fabric, at the selected cell</source>
        <translation>데모 패브릭의 선택한 셀에</translation>
    </message>
    <message>
        <source>Link down</source>
        <translation>링크 다운</translation>
    </message>
    <message>
        <source>Degraded link (half width)</source>
        <translation>저하된 링크 (절반 폭)</translation>
    </message>
    <message>
        <source>Cable unplugged</source>
        <translation>케이블 분리</translation>
    </message>
    <message>
        <source>Congested leaf uplinks</source>
        <translation>혼잡한 리프 업링크</translation>
    </message>
    <message>
        <source>PFC off on the node</source>
        <translation>노드의 PFC 끄기</translation>
    </message>
    <message>
        <source>ECN off on the node</source>
        <translation>노드의 ECN 끄기</translation>
    </message>
    <message>
        <source>No GPUDirect on the node</source>
        <translation>노드의 GPUDirect 없음</translation>
    </message>
    <message>
        <source>Start the node&apos;s agent again</source>
        <translation>노드의 에이전트 다시 시작</translation>
    </message>
    <message>
        <source>Stop the node&apos;s agent</source>
        <translation>노드의 에이전트 중지</translation>
    </message>
    <message>
        <source>Click a node in the grid first.</source>
        <translation>먼저 그리드에서 노드를 클릭하십시오.</translation>
    </message>
    <message>
        <source>Colour by:</source>
        <translation>색상 기준:</translation>
    </message>
    <message>
        <source>Health</source>
        <translation>상태</translation>
    </message>
    <message>
        <source>Inject fault</source>
        <translation>장애 주입</translation>
    </message>
    <message>
        <source>Errors</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>Errors and warnings</source>
        <translation>오류 및 경고</translation>
    </message>
    <message>
        <source>Everything</source>
        <translation>전체</translation>
    </message>
    <message>
        <source>All sources</source>
        <translation>모든 출처</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>점검</translation>
    </message>
    <message>
        <source>Connection</source>
        <translation>연결</translation>
    </message>
    <message>
        <source>Filter: code, node, words...</source>
        <translation>필터: 코드, 노드, 단어...</translation>
    </message>
    <message>
        <source>Plan ready: press Demo fabric (Ctrl+Shift+D) to emulate it, or open the fabric&apos;s agents.json.</source>
        <translation>계획 준비됨: 데모 패브릭(Ctrl+Shift+D)을 눌러 에뮬레이션하거나 패브릭의 agents.json을 여십시오.</translation>
    </message>
    <message>
        <source>Connect to agents</source>
        <translation>에이전트에 연결</translation>
    </message>
    <message>
        <source>Agent lists (agents.json *.json)</source>
        <translation>에이전트 목록 (agents.json *.json)</translation>
    </message>
    <message>
        <source>Starting the demo fabric: writing the emulated nodes and starting their agents...</source>
        <translation>데모 패브릭 시작 중: 에뮬레이션 노드를 쓰고 에이전트를 시작하는 중...</translation>
    </message>
    <message>
        <source>Connecting to the agents of %1...</source>
        <translation>%1의 에이전트에 연결하는 중...</translation>
    </message>
    <message>
        <source>Not connected.</source>
        <translation>연결되지 않았습니다.</translation>
    </message>
    <message>
        <source>Connected to the %1.</source>
        <translation>%1에 연결되었습니다.</translation>
    </message>
    <message>
        <source>%1: %2 node(s): %3 connected, %4 slow, %5 lost; sweep %6 ms; %7 s</source>
        <translation>%1: 노드 %2개: 연결됨 %3, 느림 %4, 끊김 %5; 수집 %6 ms; %7초</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>발견 사항 (%1)</translation>
    </message>
    <message>
        <source>%1 is not a node or leaf of the grid.</source>
        <translation>%1은(는) 그리드의 노드나 리프가 아닙니다.</translation>
    </message>
    <message>
        <source>Faults go into a demo fabric: connect to one first (Ctrl+Shift+D).</source>
        <translation>장애는 데모 패브릭에 주입됩니다: 먼저 연결하십시오 (Ctrl+Shift+D).</translation>
    </message>
    <message>
        <source>Click the cell (node and rail) to inject the fault into first.</source>
        <translation>먼저 장애를 주입할 셀(노드와 레일)을 클릭하십시오.</translation>
    </message>
    <message>
        <source>The leaf of %1 rail %2 has no uplinks to congest (one leaf per rail, or no rates yet).</source>
        <translation>%1 레일 %2의 리프에는 혼잡하게 만들 업링크가 없습니다 (레일당 리프 하나, 또는 아직 속도 없음).</translation>
    </message>
    <message>
        <source>Leaf/spine</source>
        <translation>리프/스파인</translation>
    </message>
    <message>
        <source>Tests</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>History</source>
        <translation>기록</translation>
    </message>
    <message>
        <source>&amp;Hostfile...</source>
        <translation>호스트 파일(&amp;H)...</translation>
    </message>
    <message>
        <source>Connect to the agents of the hosts in a hostfile (one per line, Open MPI&apos;s host slots=N too)</source>
        <translation>호스트 파일에 있는 호스트의 에이전트에 연결합니다 (한 줄에 하나, Open MPI의 host slots=N 형식도 가능)</translation>
    </message>
    <message>
        <source>P&amp;rometheus...</source>
        <translation>Prometheus(&amp;R)...</translation>
    </message>
    <message>
        <source>Read the fabric&apos;s rates from a Prometheus server that scrapes the agents or the node exporter</source>
        <translation>에이전트나 node exporter를 수집하는 Prometheus 서버에서 패브릭의 속도를 읽습니다</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>테스트</translation>
    </message>
    <message>
        <source>RoCEv2 host settings (the selected NIC)</source>
        <translation>RoCEv2 호스트 설정 (선택한 NIC)</translation>
    </message>
    <message>
        <source>Trust mode PCP instead of DSCP</source>
        <translation>신뢰 모드 DSCP 대신 PCP</translation>
    </message>
    <message>
        <source>PFC on the wrong priority</source>
        <translation>잘못된 우선순위의 PFC</translation>
    </message>
    <message>
        <source>MTU 1500</source>
        <translation>MTU 1500</translation>
    </message>
    <message>
        <source>rp_filter strict (routed plans)</source>
        <translation>rp_filter 엄격 모드 (라우팅 구성 계획)</translation>
    </message>
    <message>
        <source>RoCE v2 GID at another index</source>
        <translation>다른 인덱스의 RoCE v2 GID</translation>
    </message>
    <message>
        <source>Live check: %1 error(s), %2 warning(s) over %3 node(s)%4%5</source>
        <translation>라이브 점검: 노드 %3개에서 오류 %1개, 경고 %2개%4%5</translation>
    </message>
    <message>
        <source>; %1 node(s) with reading notes (click one to see them)</source>
        <translation>; 읽기 참고 사항이 있는 노드 %1개 (노드를 클릭하면 보입니다)</translation>
    </message>
</context>
<context>
    <name>railyard::app::MainWindow</name>
    <message>
        <source>Railyard</source>
        <translation>Railyard</translation>
    </message>
    <message>
        <source>Planning cancelled; showing the previous plan.</source>
        <translation>계획이 취소되었습니다. 이전 플랜을 표시합니다.</translation>
    </message>
    <message>
        <source>Planning: %1</source>
        <translation>계획 중: %1</translation>
    </message>
    <message>
        <source>Summary</source>
        <translation>요약</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>토폴로지</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>점검 결과</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>Cable map</source>
        <translation>케이블 맵</translation>
    </message>
    <message>
        <source>Bill of materials</source>
        <translation>자재 명세서</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <source>Open spe&amp;c...</source>
        <translation>스펙 열기(&amp;C)...</translation>
    </message>
    <message>
        <source>Sa&amp;ve spec as...</source>
        <translation>다른 이름으로 스펙 저장(&amp;V)...</translation>
    </message>
    <message>
        <source>Open &amp;example</source>
        <translation>예제 열기(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Export</source>
        <translation>내보내기(&amp;E)</translation>
    </message>
    <message>
        <source>Bill of materials (CSV)...</source>
        <translation>자재 명세서 (CSV)...</translation>
    </message>
    <message>
        <source>Bill of materials (XLSX)...</source>
        <translation>자재 명세서 (XLSX)...</translation>
    </message>
    <message>
        <source>Bill of materials (JSON)...</source>
        <translation>자재 명세서 (JSON)...</translation>
    </message>
    <message>
        <source>Cable map (CSV)...</source>
        <translation>케이블 맵 (CSV)...</translation>
    </message>
    <message>
        <source>Cable map (XLSX)...</source>
        <translation>케이블 맵 (XLSX)...</translation>
    </message>
    <message>
        <source>Topology (ibnetdiscover)...</source>
        <translation>토폴로지 (ibnetdiscover)...</translation>
    </message>
    <message>
        <source>Topology (ibdiagnet .topo)...</source>
        <translation>토폴로지 (ibdiagnet .topo)...</translation>
    </message>
    <message>
        <source>NetBox import files...</source>
        <translation>NetBox 가져오기 파일...</translation>
    </message>
    <message>
        <source>Plan (JSON)...</source>
        <translation>플랜 (JSON)...</translation>
    </message>
    <message>
        <source>Report (PDF)...</source>
        <translation>보고서 (PDF)...</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Tools</source>
        <translation>도구(&amp;T)</translation>
    </message>
    <message>
        <source>Which &amp;fabric? (advisor)...</source>
        <translation>패브릭 선택 도우미(&amp;F)...</translation>
    </message>
    <message>
        <source>Ask the advisor whether InfiniBand or RoCEv2 suits this cluster and team</source>
        <translation>이 클러스터와 팀에 InfiniBand와 RoCEv2 중 무엇이 적합한지 도우미에게 묻습니다</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Railyard</source>
        <translation>Railyard 정보(&amp;A)</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <source>Stop planning and keep the previous plan (Esc)</source>
        <translation>계획을 중단하고 이전 플랜을 유지합니다 (Esc)</translation>
    </message>
    <message>
        <source>Findings (%1)</source>
        <translation>점검 결과 (%1)</translation>
    </message>
    <message>
        <source>%1 nodes, %2 switches, %3 links; %4 error(s), %5 warning(s)</source>
        <translation>노드 %1대, 스위치 %2대, 링크 %3개; 오류 %4개, 경고 %5개</translation>
    </message>
    <message>
        <source>The spec cannot be planned: %1</source>
        <translation>스펙을 계획할 수 없습니다: %1</translation>
    </message>
    <message>
        <source>Nothing to export yet.</source>
        <translation>아직 내보낼 내용이 없습니다.</translation>
    </message>
    <message>
        <source>Exporting %1...</source>
        <translation>%1(으)로 내보내는 중...</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>%1(으)로 내보냈습니다</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>내보내기 실패</translation>
    </message>
    <message>
        <source>Open plan spec</source>
        <translation>플랜 스펙 열기</translation>
    </message>
    <message>
        <source>Plan specs (*.plan.json *.json)</source>
        <translation>플랜 스펙 (*.plan.json *.json)</translation>
    </message>
    <message>
        <source>Cannot read %1: %2</source>
        <translation>%1을(를) 읽을 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Save plan spec</source>
        <translation>플랜 스펙 저장</translation>
    </message>
    <message>
        <source>Plan specs (*.plan.json)</source>
        <translation>플랜 스펙 (*.plan.json)</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>About Railyard</source>
        <translation>Railyard 정보</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Railyard %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;Plans and brings up rail-optimized GPU fabrics, InfiniBand or RoCEv2.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Railyard %1&lt;/b&gt;&lt;/p&gt;&lt;p&gt;레일 최적화 GPU 패브릭(InfiniBand 또는 RoCEv2)을 설계하고 구축합니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;System</source>
        <extracomment>View &gt; Language: follow the system&apos;s language</extracomment>
        <translation>시스템 설정 따름(&amp;S)</translation>
    </message>
    <message>
        <source>The language changes when Railyard is started again.</source>
        <translation>Railyard를 다시 시작하면 언어가 바뀝니다.</translation>
    </message>
    <message>
        <source>Planner</source>
        <translation>플래너</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>라이브</translation>
    </message>
    <message>
        <source>&amp;Planner workspace</source>
        <translation>플래너 작업 공간(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Live workspace</source>
        <translation>라이브 작업 공간(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Live</source>
        <translation>라이브(&amp;L)</translation>
    </message>
    <message>
        <source>Network intent</source>
        <translation>네트워크 인텐트</translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectController</name>
    <message>
        <source>Project operation failed: %1</source>
        <translation>프로젝트 작업 실패: %1</translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectDialog</name>
    <message>
        <source>Plans and revisions</source>
        <translation>플랜과 리비전</translation>
    </message>
    <message>
        <source>Plan / revision</source>
        <translation>플랜 / 리비전</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>저장 시각</translation>
    </message>
    <message>
        <source>Comment</source>
        <translation>설명</translation>
    </message>
    <message>
        <source>&amp;Open</source>
        <translation>열기(&amp;O)</translation>
    </message>
    <message>
        <source>Open the selected revision (a plan: its latest revision)</source>
        <translation>선택한 리비전을 엽니다 (플랜을 선택하면 최신 리비전)</translation>
    </message>
    <message>
        <source>&amp;Rename...</source>
        <translation>이름 바꾸기(&amp;R)...</translation>
    </message>
    <message>
        <source>&amp;Delete...</source>
        <translation>삭제(&amp;D)...</translation>
    </message>
    <message>
        <source>No project is open. Save the project to keep plans in it.</source>
        <translation>열린 프로젝트가 없습니다. 플랜을 보관하려면 프로젝트를 저장하세요.</translation>
    </message>
    <message>
        <source>Project %1</source>
        <translation>프로젝트 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n revision(s)</source>
        <translation>
            <numerusform>리비전 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>Revision %1</source>
        <extracomment>A revision of a plan in the &quot;Plans and revisions&quot; list</extracomment>
        <translation>리비전 %1</translation>
    </message>
    <message>
        <source>Rename plan</source>
        <translation>플랜 이름 바꾸기</translation>
    </message>
    <message>
        <source>New name for plan &quot;%1&quot;:</source>
        <translation>플랜 &quot;%1&quot;의 새 이름:</translation>
    </message>
    <message>
        <source>Delete plan</source>
        <translation>플랜 삭제</translation>
    </message>
    <message>
        <source>Delete plan &quot;%1&quot; and all its revisions from the project? This cannot be undone.</source>
        <translation>프로젝트에서 플랜 &quot;%1&quot;과(와) 모든 리비전을 삭제할까요? 되돌릴 수 없습니다.</translation>
    </message>
</context>
<context>
    <name>railyard::app::ProjectSession</name>
    <message>
        <source>Saved plan &quot;%1&quot; as revision %2 in %3</source>
        <translation>플랜 &quot;%1&quot;을(를) %3에 리비전 %2(으)로 저장했습니다</translation>
    </message>
    <message>
        <source>Autosave failed: %1</source>
        <translation>자동 저장 실패: %1</translation>
    </message>
    <message>
        <source>Recovery</source>
        <translation>복구</translation>
    </message>
    <message>
        <source>&amp;Restore</source>
        <translation>복원(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Discard</source>
        <translation>버리기(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;New project</source>
        <translation>새 프로젝트(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Open project...</source>
        <translation>프로젝트 열기(&amp;O)...</translation>
    </message>
    <message>
        <source>Open &amp;recent project</source>
        <translation>최근 프로젝트 열기(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>저장(&amp;S)</translation>
    </message>
    <message>
        <source>Save the spec as a new revision of its plan in the project</source>
        <translation>스펙을 프로젝트 내 해당 플랜의 새 리비전으로 저장합니다</translation>
    </message>
    <message>
        <source>Save project &amp;as...</source>
        <translation>다른 이름으로 프로젝트 저장(&amp;A)...</translation>
    </message>
    <message>
        <source>&amp;Plans and revisions...</source>
        <translation>플랜과 리비전(&amp;P)...</translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation>최근 프로젝트 없음</translation>
    </message>
    <message>
        <source>&amp;Clear list</source>
        <translation>목록 지우기(&amp;C)</translation>
    </message>
    <message>
        <source>untitled plan</source>
        <translation>제목 없는 플랜</translation>
    </message>
    <message>
        <source>untitled project</source>
        <translation>제목 없는 프로젝트</translation>
    </message>
    <message>
        <source>%1[*] — %2 — Railyard</source>
        <extracomment>Window title: plan name, then the project file; [*] shows * while there are unsaved edits</extracomment>
        <translation>%1[*] — %2 — Railyard</translation>
    </message>
    <message>
        <source>Opened plan &quot;%1&quot;, revision %2</source>
        <translation>플랜 &quot;%1&quot;, 리비전 %2을(를) 열었습니다</translation>
    </message>
    <message>
        <source>Railyard project</source>
        <translation>Railyard 프로젝트</translation>
    </message>
    <message>
        <source>Railyard did not exit cleanly. Unsaved changes to plan &quot;%1&quot; in %2 (autosaved %3) can be restored.</source>
        <translation>Railyard가 정상적으로 종료되지 않았습니다. %2의 플랜 &quot;%1&quot;에 저장되지 않은 변경 사항(%3 자동 저장)을 복원할 수 있습니다.</translation>
    </message>
    <message>
        <source>Railyard did not exit cleanly. An unsaved plan (autosaved %1) can be restored.</source>
        <translation>Railyard가 정상적으로 종료되지 않았습니다. 저장되지 않은 플랜(%1 자동 저장)을 복원할 수 있습니다.</translation>
    </message>
    <message>
        <source>plan</source>
        <translation>플랜</translation>
    </message>
    <message>
        <source>Save plan</source>
        <translation>플랜 저장</translation>
    </message>
    <message>
        <source>Name of this plan in the project:</source>
        <translation>프로젝트에서 사용할 플랜 이름:</translation>
    </message>
    <message>
        <source>project</source>
        <translation>프로젝트</translation>
    </message>
    <message>
        <source>Save project as</source>
        <translation>다른 이름으로 프로젝트 저장</translation>
    </message>
    <message>
        <source>Railyard projects (*.railyard)</source>
        <translation>Railyard 프로젝트 (*.railyard)</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>저장되지 않은 변경 사항</translation>
    </message>
    <message>
        <source>The plan has changes that are not saved in a project. Save them first?</source>
        <translation>플랜에 프로젝트에 저장되지 않은 변경 사항이 있습니다. 먼저 저장할까요?</translation>
    </message>
    <message>
        <source>Open project</source>
        <translation>프로젝트 열기</translation>
    </message>
    <message>
        <source>Railyard projects (*.railyard);;All files (*)</source>
        <translation>Railyard 프로젝트 (*.railyard);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>railyard::app::ReportPdf</name>
    <message>
        <source>Untitled plan</source>
        <translation>제목 없는 플랜</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>토폴로지</translation>
    </message>
    <message>
        <source>No topology picture was available.</source>
        <translation>토폴로지 그림을 사용할 수 없습니다.</translation>
    </message>
    <message>
        <source>Bill of materials</source>
        <translation>자재 명세서</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>분류</translation>
    </message>
    <message>
        <source>Qty</source>
        <translation>수량</translation>
    </message>
    <message>
        <source>Part</source>
        <translation>부품</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>품목</translation>
    </message>
    <message>
        <source>Unit price</source>
        <translation>단가</translation>
    </message>
    <message>
        <source>Extended</source>
        <translation>금액</translation>
    </message>
    <message>
        <source>Total</source>
        <translation>합계</translation>
    </message>
    <message>
        <source>Total of the priced lines</source>
        <translation>가격이 있는 항목의 합계</translation>
    </message>
    <message>
        <source>Some parts have no price in the catalog; the total leaves them out.</source>
        <translation>카탈로그에 가격이 없는 부품이 있어 합계에서 제외했습니다.</translation>
    </message>
    <message>
        <source>The catalog has no prices for these parts.</source>
        <translation>카탈로그에 이 부품들의 가격이 없습니다.</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>점검 결과</translation>
    </message>
    <message>
        <source>No findings: the design follows every rule Railyard checks.</source>
        <translation>점검 결과 없음: 설계가 Railyard가 검사하는 모든 규칙을 충족합니다.</translation>
    </message>
    <message>
        <source>Severity</source>
        <translation>심각도</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>코드</translation>
    </message>
    <message>
        <source>Where</source>
        <translation>위치</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>메시지</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>Railyard fabric report, %1</source>
        <translation>Railyard 패브릭 보고서, %1</translation>
    </message>
    <message>
        <source>Page %1 of %2</source>
        <translation>%2쪽 중 %1쪽</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>%1에 쓸 수 없습니다: %2</translation>
    </message>
    <message>
        <source>Cannot write %1: the PDF writer did not start</source>
        <translation>%1에 쓸 수 없습니다: PDF 작성기를 시작하지 못했습니다</translation>
    </message>
</context>
<context>
    <name>railyard::app::SpecForm</name>
    <message>
        <source>&amp;Undo</source>
        <translation>실행 취소(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Redo</source>
        <translation>다시 실행(&amp;R)</translation>
    </message>
    <message>
        <source>%1 (unknown)</source>
        <translation>%1 (알 수 없음)</translation>
    </message>
    <message>
        <source>%1x</source>
        <translation>%1x</translation>
    </message>
    <message>
        <source>%1 GbE</source>
        <translation>%1 GbE</translation>
    </message>
    <message>
        <source>%1 lanes</source>
        <translation>%1레인</translation>
    </message>
    <message numerus="yes">
        <source>%n name(s) listed in the spec</source>
        <translation>
            <numerusform>스펙에 나열된 이름 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>default for the speed</source>
        <translation>속도별 기본값</translation>
    </message>
    <message>
        <source>same as leaf</source>
        <translation>리프와 동일</translation>
    </message>
    <message>
        <source>same as spine</source>
        <translation>스파인과 동일</translation>
    </message>
    <message>
        <source>%1 (other fabric)</source>
        <translation>%1 (다른 패브릭)</translation>
    </message>
    <message>
        <source>from node type</source>
        <translation>노드 유형 기준</translation>
    </message>
    <message>
        <source>from node type (%1)</source>
        <translation>노드 유형 기준 (%1)</translation>
    </message>
    <message>
        <source>= %L1 nodes of %2 GPUs</source>
        <translation>= GPU %2개 노드 %L1대</translation>
    </message>
    <message>
        <source>= %L1 GPUs</source>
        <translation>= GPU %L1개</translation>
    </message>
    <message>
        <source>%1x (%2 Gb/s)</source>
        <translation>%1x (%2 Gb/s)</translation>
    </message>
    <message>
        <source>%1x (not offered)</source>
        <translation>%1x (지원 안 함)</translation>
    </message>
    <message>
        <source>must be &quot;down:up&quot; like &quot;2:1&quot;, got &quot;%1&quot;</source>
        <translation>&quot;2:1&quot;처럼 &quot;다운:업&quot; 형식이어야 합니다. 입력값: &quot;%1&quot;</translation>
    </message>
    <message>
        <source>must be priorities from 0 to 7, separated by commas, like &quot;3&quot; or &quot;3, 4&quot;</source>
        <translation>&quot;3&quot; 또는 &quot;3, 4&quot;처럼 0~7 사이 우선순위를 쉼표로 구분해 입력해야 합니다</translation>
    </message>
    <message>
        <source>Edit %1</source>
        <translation>%1 편집</translation>
    </message>
    <message>
        <source> m</source>
        <extracomment>Unit suffix of a distance in metres.</extracomment>
        <translation> m</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>클러스터</translation>
    </message>
    <message>
        <source>untitled</source>
        <translation>제목 없음</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <source>Free text that names the design in reports and exports.</source>
        <translation>보고서와 내보내기 파일에서 설계를 가리키는 자유 형식 이름입니다.</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>RoCEv2 (Ethernet)</source>
        <translation>RoCEv2 (이더넷)</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>패브릭</translation>
    </message>
    <message>
        <source>InfiniBand: a credit-based lossless fabric run by a subnet manager. RoCEv2: RDMA over UDP/IP on Ethernet, kept lossless by PFC, ECN and DCQCN.</source>
        <translation>InfiniBand: 서브넷 매니저가 관리하는 크레딧 기반 무손실 패브릭입니다. RoCEv2: 이더넷 위 UDP/IP 기반 RDMA로, PFC, ECN, DCQCN으로 무손실을 유지합니다.</translation>
    </message>
    <message>
        <source>Node type</source>
        <translation>노드 유형</translation>
    </message>
    <message>
        <source>The GPU server from the catalog. It gives the GPUs per node, the compute NICs (one per rail) and the NIC model.</source>
        <translation>카탈로그의 GPU 서버입니다. 노드당 GPU 수, 컴퓨트 NIC(레일당 1개), NIC 모델이 여기서 정해집니다.</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>노드</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>Give the cluster size in nodes (servers) or in GPUs; with GPUs, nodes = GPUs / GPUs per node, rounded up.</source>
        <translation>클러스터 규모를 노드(서버) 수 또는 GPU 수로 입력합니다. GPU 수로 입력하면 노드 수 = GPU 수 / 노드당 GPU 수(올림)입니다.</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>규모</translation>
    </message>
    <message>
        <source>How many nodes (servers) the fabric connects, or how many GPUs.</source>
        <translation>패브릭에 연결할 노드(서버) 수 또는 GPU 수입니다.</translation>
    </message>
    <message>
        <source>GPUs per node</source>
        <translation>노드당 GPU</translation>
    </message>
    <message>
        <source>Overrides the node type&apos;s GPU count. Leave it at &quot;from node type&quot; unless the servers differ from the catalog.</source>
        <translation>노드 유형의 GPU 수를 재정의합니다. 서버가 카탈로그와 다르지 않다면 &quot;노드 유형 기준&quot;으로 두세요.</translation>
    </message>
    <message>
        <source>Rails</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>A rail is the set of NIC k of every node, wired to its own leaf switches, so GPU k talks to GPU k elsewhere in one hop. Rails = compute NICs per node; overrides the node type.</source>
        <translation>레일은 모든 노드의 k번째 NIC를 묶어 전용 리프 스위치에 연결한 것으로, k번째 GPU끼리 한 홉으로 통신합니다. 레일 수 = 노드당 컴퓨트 NIC 수이며, 노드 유형 값을 재정의합니다.</translation>
    </message>
    <message>
        <source>NIC</source>
        <translation>NIC</translation>
    </message>
    <message>
        <source>The compute NIC model; by default the node type&apos;s.</source>
        <translation>컴퓨트 NIC 모델입니다. 기본값은 노드 유형의 NIC입니다.</translation>
    </message>
    <message>
        <source>Node names</source>
        <translation>노드 이름</translation>
    </message>
    <message>
        <source>A pattern with exactly one %0Nd, numbered from 1 in SU order: node%03d gives node001, node002 and so on.</source>
        <translation>%0Nd를 정확히 하나 포함하는 패턴으로, SU 순서대로 1부터 번호를 매깁니다. 예: node%03d → node001, node002, …</translation>
    </message>
    <message>
        <source>Link</source>
        <translation>링크</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>세대</translation>
    </message>
    <message>
        <source>InfiniBand speed grade per lane: EDR 25, HDR 50, NDR 100, XDR 200 Gb/s.</source>
        <translation>레인당 InfiniBand 속도 등급: EDR 25, HDR 50, NDR 100, XDR 200 Gb/s.</translation>
    </message>
    <message>
        <source>Width</source>
        <translation>폭</translation>
    </message>
    <message>
        <source>Lanes per port. NDR 2x is NDR200 (200 Gb/s): a QM9700 then has 128 ports instead of 64 at NDR 4x (400 Gb/s).</source>
        <translation>포트당 레인 수입니다. NDR 2x는 NDR200(200 Gb/s)으로, 이때 QM9700은 NDR 4x(400 Gb/s)의 64포트 대신 128포트가 됩니다.</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>속도</translation>
    </message>
    <message>
        <source>Ethernet port speed of each NIC port.</source>
        <translation>각 NIC 포트의 이더넷 포트 속도입니다.</translation>
    </message>
    <message>
        <source>NIC&apos;s native</source>
        <translation>NIC 기본값</translation>
    </message>
    <message>
        <source>1 lane</source>
        <translation>1레인</translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation>레인</translation>
    </message>
    <message>
        <source>Ethernet lanes per port. 400G is 4 x 100G on ConnectX-7 but 8 x 50G on some switches; the two cannot be cabled together.</source>
        <translation>포트당 이더넷 레인 수입니다. 400G는 ConnectX-7에서는 4 x 100G이지만 일부 스위치에서는 8 x 50G이며, 두 방식은 서로 케이블로 연결할 수 없습니다.</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>Leaf</source>
        <translation>리프</translation>
    </message>
    <message>
        <source>The leaf (rail) switch model; by default the catalog&apos;s switch for the fabric and speed.</source>
        <translation>리프(레일) 스위치 모델입니다. 기본값은 패브릭과 속도에 맞는 카탈로그 스위치입니다.</translation>
    </message>
    <message>
        <source>Spine</source>
        <translation>스파인</translation>
    </message>
    <message>
        <source>The spine switch model; by default the leaf&apos;s.</source>
        <translation>스파인 스위치 모델입니다. 기본값은 리프와 같은 모델입니다.</translation>
    </message>
    <message>
        <source>Core</source>
        <translation>코어</translation>
    </message>
    <message>
        <source>The core switch model of a three-tier fabric; by default the spine&apos;s.</source>
        <translation>3계층 패브릭의 코어 스위치 모델입니다. 기본값은 스파인과 같은 모델입니다.</translation>
    </message>
    <message>
        <source>Topology</source>
        <translation>토폴로지</translation>
    </message>
    <message>
        <source>derived</source>
        <translation>자동 산출</translation>
    </message>
    <message>
        <source>SU size</source>
        <translation>SU 크기</translation>
    </message>
    <message>
        <source>A scalable unit (SU) is a group of nodes whose NIC k all share one rail-k leaf; the SU size is the leaf&apos;s node-facing ports. Derived by default from the leaf&apos;s ports and the oversubscription.</source>
        <translation>스케일러블 유닛(SU)은 k번째 NIC가 모두 하나의 레일 k 리프를 공유하는 노드 그룹이며, SU 크기는 리프의 노드 방향 포트 수입니다. 기본값은 리프 포트 수와 오버서브스크립션으로 산출합니다.</translation>
    </message>
    <message>
        <source>Oversubscription is the down:up bandwidth ratio at a switch tier: 1:1 is non-blocking, 2:1 gives half as much uplink as downlink bandwidth.</source>
        <translation>오버서브스크립션은 스위치 계층의 다운링크:업링크 대역폭 비율입니다. 1:1은 논블로킹이며, 2:1은 업링크 대역폭이 다운링크의 절반입니다.</translation>
    </message>
    <message>
        <source>Leaf ratio</source>
        <translation>리프 비율</translation>
    </message>
    <message>
        <source>Spine ratio</source>
        <translation>스파인 비율</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>자동</translation>
    </message>
    <message>
        <source>2 (leaf, spine)</source>
        <translation>2 (리프, 스파인)</translation>
    </message>
    <message>
        <source>3 (leaf, spine, core)</source>
        <translation>3 (리프, 스파인, 코어)</translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation>계층 수</translation>
    </message>
    <message>
        <source>Switch layers between nodes: two (leaf and spine) or three (with a core). Auto picks two while one spine layer can connect every leaf.</source>
        <translation>노드 사이의 스위치 계층 수: 2계층(리프, 스파인) 또는 3계층(코어 포함). 자동은 스파인 계층 하나로 모든 리프를 연결할 수 있는 한 2계층을 선택합니다.</translation>
    </message>
    <message>
        <source>Planes</source>
        <translation>플레인</translation>
    </message>
    <message>
        <source>Independent copies of the rail fabric. With two, each NIC port is split across two planes, e.g. 800G as 2 x 400G.</source>
        <translation>레일 패브릭의 독립된 사본입니다. 2개면 각 NIC 포트가 두 플레인으로 나뉩니다(예: 800G를 2 x 400G로).</translation>
    </message>
    <message>
        <source>Reserved ports</source>
        <translation>예약 포트</translation>
    </message>
    <message>
        <source>Ports per leaf kept free for management, storage or growth; they do not carry planned links.</source>
        <translation>관리, 스토리지, 증설용으로 리프마다 비워 두는 포트이며, 계획된 링크를 연결하지 않습니다.</translation>
    </message>
    <message>
        <source>Mgmt ports</source>
        <translation>관리 포트</translation>
    </message>
    <message>
        <source>Ports of fabric-management appliances (such as UFM) attached to the leaves of SU 1; counted as node-leaf cables.</source>
        <translation>SU 1의 리프에 연결되는 패브릭 관리 어플라이언스(UFM 등)의 포트이며, 노드-리프 케이블로 집계됩니다.</translation>
    </message>
    <message>
        <source>none</source>
        <translation>없음</translation>
    </message>
    <message>
        <source>Grow to</source>
        <translation>최종 규모</translation>
    </message>
    <message>
        <source>The final size in nodes when building in phases: spines, cores and their cabling are planned for it, and the plan marks what is installed now. Must be more than the nodes.</source>
        <translation>단계적으로 구축할 때의 최종 노드 수입니다. 스파인, 코어와 그 케이블링은 이 규모로 계획되며, 플랜에는 현재 설치분이 표시됩니다. 노드 수보다 커야 합니다.</translation>
    </message>
    <message>
        <source>Lossless profile</source>
        <translation>무손실 프로파일</translation>
    </message>
    <message>
        <source>RoCEv2 only: how the Ethernet fabric avoids dropping RDMA traffic.</source>
        <translation>RoCEv2 전용: 이더넷 패브릭이 RDMA 트래픽 드롭을 방지하는 방식입니다.</translation>
    </message>
    <message>
        <source>lossless</source>
        <translation>무손실</translation>
    </message>
    <message>
        <source>PFC only</source>
        <translation>PFC만</translation>
    </message>
    <message>
        <source>lossy</source>
        <translation>손실 허용</translation>
    </message>
    <message>
        <source>Mode</source>
        <translation>모드</translation>
    </message>
    <message>
        <source>Lossless: PFC on every hop, ECN marking at switches, DCQCN at NICs. PFC only: no ECN. Lossy: ECN and DCQCN without PFC, relying on NIC retransmission.</source>
        <translation>무손실: 모든 홉에 PFC, 스위치에서 ECN 마킹, NIC에서 DCQCN. PFC만: ECN 없음. 손실 허용: PFC 없이 ECN과 DCQCN만 사용하며 NIC 재전송에 의존합니다.</translation>
    </message>
    <message>
        <source>3</source>
        <translation>3</translation>
    </message>
    <message>
        <source>PFC priority</source>
        <translation>PFC 우선순위</translation>
    </message>
    <message>
        <source>PFC (priority flow control) pauses one traffic class when a buffer fills instead of dropping. The priority (0 to 7) that carries RoCE; several separated by commas.</source>
        <translation>PFC(우선순위 흐름 제어)는 버퍼가 차면 패킷을 드롭하는 대신 해당 트래픽 클래스를 일시 정지시킵니다. RoCE를 전달하는 우선순위(0~7)이며, 여러 개는 쉼표로 구분합니다.</translation>
    </message>
    <message>
        <source>marking at switches</source>
        <translation>스위치에서 마킹</translation>
    </message>
    <message>
        <source>ECN</source>
        <translation>ECN</translation>
    </message>
    <message>
        <source>ECN (explicit congestion notification): switches mark packets when a queue builds up instead of dropping them.</source>
        <translation>ECN(명시적 혼잡 알림): 큐가 쌓이면 스위치가 패킷을 드롭하는 대신 마킹합니다.</translation>
    </message>
    <message>
        <source>rate control at NICs</source>
        <translation>NIC에서 전송률 제어</translation>
    </message>
    <message>
        <source>DCQCN</source>
        <translation>DCQCN</translation>
    </message>
    <message>
        <source>DCQCN: a NIC that receives ECN-marked packets sends CNPs back, and the sender slows down.</source>
        <translation>DCQCN: ECN 마킹된 패킷을 받은 NIC가 CNP를 회신하면 송신 측이 전송 속도를 줄입니다.</translation>
    </message>
    <message>
        <source>DSCP</source>
        <translation>DSCP</translation>
    </message>
    <message>
        <source>PCP (VLAN)</source>
        <translation>PCP (VLAN)</translation>
    </message>
    <message>
        <source>Trust</source>
        <translation>신뢰 기준</translation>
    </message>
    <message>
        <source>Which packet field switches and NICs trust to pick the priority: DSCP in the IP header (works without VLANs) or the VLAN PCP.</source>
        <translation>스위치와 NIC가 우선순위를 정할 때 신뢰하는 패킷 필드: IP 헤더의 DSCP(VLAN 없이 동작) 또는 VLAN PCP.</translation>
    </message>
    <message>
        <source>RoCE DSCP</source>
        <translation>RoCE DSCP</translation>
    </message>
    <message>
        <source>DSCP value of RoCE data packets (0 to 63), mapped to the PFC priority.</source>
        <translation>RoCE 데이터 패킷의 DSCP 값(0~63)이며, PFC 우선순위에 매핑됩니다.</translation>
    </message>
    <message>
        <source>CNP DSCP</source>
        <translation>CNP DSCP</translation>
    </message>
    <message>
        <source>DSCP value of congestion notification packets (CNPs), usually a strict-priority class.</source>
        <translation>혼잡 알림 패킷(CNP)의 DSCP 값이며, 보통 엄격 우선순위(strict priority) 클래스를 사용합니다.</translation>
    </message>
    <message>
        <source> B</source>
        <extracomment>Unit suffix of an MTU in bytes.</extracomment>
        <translation> B</translation>
    </message>
    <message>
        <source>MTU</source>
        <translation>MTU</translation>
    </message>
    <message>
        <source>An RDMA path MTU (256, 512, 1024, 2048 or 4096) or an Ethernet interface MTU from 1500 to 9216.</source>
        <translation>RDMA 경로 MTU(256, 512, 1024, 2048, 4096) 또는 1500~9216 사이의 이더넷 인터페이스 MTU입니다.</translation>
    </message>
    <message>
        <source>Rack layout</source>
        <translation>랙 배치</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>표시</translation>
    </message>
    <message>
        <source>Where nodes and switches sit; cable lengths follow from it.</source>
        <translation>노드와 스위치가 놓이는 위치이며, 케이블 길이가 이에 따라 결정됩니다.</translation>
    </message>
    <message>
        <source>Nodes per rack</source>
        <translation>랙당 노드</translation>
    </message>
    <message>
        <source>GPU servers in one rack.</source>
        <translation>랙 하나에 들어가는 GPU 서버 수입니다.</translation>
    </message>
    <message>
        <source>row (network rack)</source>
        <translation>열 (네트워크 랙)</translation>
    </message>
    <message>
        <source>rack (top of rack)</source>
        <translation>랙 (ToR)</translation>
    </message>
    <message>
        <source>Leaves in</source>
        <translation>리프 위치</translation>
    </message>
    <message>
        <source>Row: the leaves of an SU sit in a network rack in the middle of its row. Rack: in the node racks, top of rack.</source>
        <translation>열: SU의 리프 스위치가 해당 열 중앙의 네트워크 랙에 위치합니다. 랙: 노드 랙 상단(ToR)에 위치합니다.</translation>
    </message>
    <message>
        <source>Rack width</source>
        <translation>랙 폭</translation>
    </message>
    <message>
        <source>Distance between neighbouring racks.</source>
        <translation>인접한 랙 사이의 거리입니다.</translation>
    </message>
    <message>
        <source>In-rack run</source>
        <translation>랙 내부 배선</translation>
    </message>
    <message>
        <source>Vertical cable run at each end: up to the tray and down into the rack.</source>
        <translation>양 끝단의 수직 케이블 길이: 트레이까지 올라가고 랙 안으로 내려오는 구간입니다.</translation>
    </message>
    <message>
        <source>Slack</source>
        <translation>여유 길이</translation>
    </message>
    <message>
        <source>Added to every cable.</source>
        <translation>모든 케이블에 더해집니다.</translation>
    </message>
    <message>
        <source>SU pitch</source>
        <translation>SU 간격</translation>
    </message>
    <message>
        <source>Distance between neighbouring SU rows.</source>
        <translation>인접한 SU 열 사이의 거리입니다.</translation>
    </message>
    <message>
        <source>To spines</source>
        <translation>스파인까지</translation>
    </message>
    <message>
        <source>From an SU row to the spine area.</source>
        <translation>SU 열에서 스파인 영역까지의 거리입니다.</translation>
    </message>
    <message>
        <source>To cores</source>
        <translation>코어까지</translation>
    </message>
    <message>
        <source>From the spine area to the core area.</source>
        <translation>스파인 영역에서 코어 영역까지의 거리입니다.</translation>
    </message>
    <message>
        <source>derived (%1)</source>
        <translation>자동 산출 (%1)</translation>
    </message>
    <message>
        <source>default (%1)</source>
        <translation>기본값 (%1)</translation>
    </message>
    <message>
        <source>Fix the marked fields to plan again; the plan shown is for the last valid spec.</source>
        <translation>표시된 필드를 수정하면 다시 계획합니다. 현재 표시된 플랜은 마지막으로 유효했던 스펙 기준입니다.</translation>
    </message>
    <message>
        <source>The spec cannot be planned; the marked fields say why.</source>
        <translation>스펙을 계획할 수 없습니다. 표시된 필드에서 이유를 확인하세요.</translation>
    </message>
    <message>
        <source>Hide</source>
        <translation>숨기기</translation>
    </message>
    <message>
        <source>must be a private AS number: 4200000000 to 4294967294 or 64512 to 65534</source>
        <translation>사설 AS 번호여야 합니다: 4200000000~4294967294 또는 64512~65534</translation>
    </message>
    <message>
        <source>Addressing</source>
        <translation>주소 지정</translation>
    </message>
    <message>
        <source>RoCEv2 only: a routed (L3) fabric, its address ranges and BGP AS numbers.</source>
        <translation>RoCEv2 전용: 라우팅(L3) 패브릭과 그 주소 범위, BGP AS 번호입니다.</translation>
    </message>
    <message>
        <source>routed (L3, eBGP)</source>
        <translation>라우팅 (L3, eBGP)</translation>
    </message>
    <message>
        <source>Routing</source>
        <translation>라우팅</translation>
    </message>
    <message>
        <source>Every link gets its own addresses and every switch a loopback and an AS number; the Network intent page then generates the switch and host configuration. Off: the plan has no addresses.</source>
        <translation>모든 링크에 고유한 주소가, 모든 스위치에 루프백과 AS 번호가 부여되며, 네트워크 인텐트 페이지에서 스위치와 호스트 구성을 생성합니다. 끄면 플랜에 주소가 없습니다.</translation>
    </message>
    <message>
        <source>/31 per link</source>
        <translation>링크당 /31</translation>
    </message>
    <message>
        <source>subnet per leaf</source>
        <translation>리프당 서브넷</translation>
    </message>
    <message>
        <source>Scheme</source>
        <translation>방식</translation>
    </message>
    <message>
        <source>/31 per link: each NIC-leaf link is its own /31 (the leaf side takes the even address). Subnet per leaf: the NICs of one leaf share a subnet with the leaf as gateway; switch-to-switch links stay /31.</source>
        <translation>링크당 /31: NIC-리프 링크마다 고유한 /31을 사용합니다(리프 쪽이 짝수 주소). 리프당 서브넷: 한 리프의 NIC들이 리프를 게이트웨이로 하는 서브넷을 공유하며, 스위치 간 링크는 /31로 유지됩니다.</translation>
    </message>
    <message>
        <source>Fabric range</source>
        <translation>패브릭 범위</translation>
    </message>
    <message>
        <source>IPv4 prefix the link /31s and the leaf subnets come from, like 10.0.0.0/10. A 128K-GPU fabric needs about 400,000 /31s.</source>
        <translation>링크 /31과 리프 서브넷을 할당할 IPv4 프리픽스입니다(예: 10.0.0.0/10). GPU 128K개 규모의 패브릭에는 /31이 약 400,000개 필요합니다.</translation>
    </message>
    <message>
        <source>Loopbacks</source>
        <translation>루프백</translation>
    </message>
    <message>
        <source>IPv4 prefix of the switches&apos; loopbacks (one /32 each, also the BGP router id).</source>
        <translation>스위치 루프백의 IPv4 프리픽스입니다(스위치마다 /32 하나, BGP 라우터 ID로도 사용).</translation>
    </message>
    <message>
        <source>per leaf</source>
        <translation>리프당</translation>
    </message>
    <message>
        <source>per tier</source>
        <translation>계층당</translation>
    </message>
    <message>
        <source>AS numbers</source>
        <translation>AS 번호</translation>
    </message>
    <message>
        <source>Per leaf: a unique AS number per leaf, one per spine group and core plane (RFC 7938). Per tier: one for all leaves, one for the spines, one for the cores (the leaves then allow their own AS in paths).</source>
        <translation>리프당: 리프마다 고유한 AS 번호, 스파인 그룹과 코어 플레인마다 하나씩(RFC 7938). 계층당: 모든 리프에 하나, 스파인에 하나, 코어에 하나(이 경우 리프는 경로에 자신의 AS를 허용).</translation>
    </message>
    <message>
        <source>First ASN</source>
        <translation>첫 ASN</translation>
    </message>
    <message>
        <source>First AS number, private only: 4200000000 to 4294967294 (4-byte) or 64512 to 65534 (2-byte).</source>
        <translation>첫 AS 번호이며, 사설 번호만 가능합니다: 4200000000~4294967294(4바이트) 또는 64512~65534(2바이트).</translation>
    </message>
</context>
<context>
    <name>railyard::app::SummaryView</name>
    <message>
        <source>This spec cannot be planned</source>
        <translation>이 스펙은 계획할 수 없습니다</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>계층</translation>
    </message>
    <message>
        <source>Switches</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>Links below</source>
        <translation>하위 링크</translation>
    </message>
    <message>
        <source>leaf</source>
        <translation>리프</translation>
    </message>
    <message>
        <source>spine</source>
        <translation>스파인</translation>
    </message>
    <message>
        <source>core</source>
        <translation>코어</translation>
    </message>
    <message>
        <source>total</source>
        <translation>합계</translation>
    </message>
    <message>
        <source>No findings: the design follows every rule Railyard checks.</source>
        <translation>점검 결과 없음: 설계가 Railyard가 검사하는 모든 규칙을 충족합니다.</translation>
    </message>
    <message>
        <source>error</source>
        <translation>오류</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>경고</translation>
    </message>
    <message>
        <source>info</source>
        <translation>정보</translation>
    </message>
    <message>
        <source>nodes</source>
        <translation>노드</translation>
    </message>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>SUs</source>
        <translation>SU</translation>
    </message>
    <message>
        <source>switches</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>links</source>
        <translation>링크</translation>
    </message>
    <message>
        <source>transceivers</source>
        <translation>트랜시버</translation>
    </message>
    <message>
        <source>Fabric</source>
        <translation>패브릭</translation>
    </message>
    <message>
        <source>InfiniBand</source>
        <translation>InfiniBand</translation>
    </message>
    <message>
        <source>RoCEv2</source>
        <translation>RoCEv2</translation>
    </message>
    <message>
        <source>Node type</source>
        <translation>노드 유형</translation>
    </message>
    <message>
        <source>Scalable units</source>
        <translation>스케일러블 유닛(SU)</translation>
    </message>
    <message>
        <source>%1 of %2 nodes, %3 leaf per rail</source>
        <translation>%2노드 SU %1개, 레일당 리프 %3대</translation>
    </message>
    <message>
        <source>Tiers</source>
        <translation>계층 수</translation>
    </message>
    <message>
        <source>3 (%1 pods of %2 SU)</source>
        <translation>3 (%2 SU 규모 포드 %1개)</translation>
    </message>
    <message>
        <source>2</source>
        <translation>2</translation>
    </message>
    <message>
        <source>Leaf ports</source>
        <translation>리프 포트</translation>
    </message>
    <message>
        <source>%1 down, %2 up; %3 links to each of %4 spines</source>
        <translation>다운링크 %1, 업링크 %2; 스파인 %4대 각각에 링크 %3개</translation>
    </message>
    <message>
        <source>Oversubscription</source>
        <translation>오버서브스크립션</translation>
    </message>
    <message>
        <source>leaf %1:1, spine %2:1 (as built)</source>
        <translation>리프 %1:1, 스파인 %2:1 (구성 기준)</translation>
    </message>
    <message>
        <source>Bisection</source>
        <translation>이분 대역폭</translation>
    </message>
    <message>
        <source>Per GPU</source>
        <translation>GPU당</translation>
    </message>
    <message>
        <source>LIDs per subnet</source>
        <translation>서브넷당 LID</translation>
    </message>
    <message>
        <source>Switch hops</source>
        <translation>스위치 홉</translation>
    </message>
    <message>
        <source>same leaf %1, same rail other SU %2, across rails %3</source>
        <translation>같은 리프 %1, 같은 레일·다른 SU %2, 레일 간 %3</translation>
    </message>
    <message>
        <source>Power</source>
        <translation>전력</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>비용</translation>
    </message>
    <message>
        <source>Switches and links</source>
        <translation>스위치와 링크</translation>
    </message>
    <message>
        <source>Findings</source>
        <translation>점검 결과</translation>
    </message>
</context>
<context>
    <name>railyard::app::SwitchesModel</name>
    <message>
        <source>Switch</source>
        <translation>스위치</translation>
    </message>
    <message>
        <source>Tier</source>
        <translation>계층</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>모델</translation>
    </message>
    <message>
        <source>SU</source>
        <translation>SU</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Ports</source>
        <translation>포트</translation>
    </message>
    <message>
        <source>Used</source>
        <translation>사용</translation>
    </message>
    <message>
        <source>Free</source>
        <translation>여유</translation>
    </message>
    <message>
        <source>Installed</source>
        <translation>설치 여부</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>예</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>계획됨</translation>
    </message>
</context>
<context>
    <name>railyard::app::TablePage</name>
    <message>
        <source>Search (any column)</source>
        <translation>검색 (모든 열)</translation>
    </message>
    <message>
        <source>%1 rows</source>
        <translation>%1행</translation>
    </message>
    <message>
        <source>%1 of %2 rows</source>
        <translation>%2행 중 %1행</translation>
    </message>
</context>
<context>
    <name>railyard::app::TopologyView</name>
    <message>
        <source>Zoom In</source>
        <translation>확대</translation>
    </message>
    <message>
        <source>Zoom Out</source>
        <translation>축소</translation>
    </message>
    <message>
        <source>Fit to View</source>
        <translation>화면에 맞추기</translation>
    </message>
    <message>
        <source>Collapsed: one box per SU and rail, bundles show link counts</source>
        <translation>축약 보기: SU와 레일마다 상자 하나, 묶음에 링크 수 표시</translation>
    </message>
    <message>
        <source>Hover a cable for its ports; right-click to mark failed</source>
        <translation>케이블에 마우스를 올리면 포트가 표시됩니다. 오른쪽 클릭으로 장애 표시</translation>
    </message>
    <message>
        <source>Mark Failed</source>
        <translation>장애로 표시</translation>
    </message>
    <message numerus="yes">
        <source>Mark %n Switches Failed</source>
        <translation>
            <numerusform>스위치 %n대를 장애로 표시</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore</source>
        <translation>복구</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n Switches</source>
        <translation>
            <numerusform>스위치 %n대 복구</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark Cable Failed</source>
        <translation>케이블을 장애로 표시</translation>
    </message>
    <message numerus="yes">
        <source>Mark All %n Cables Failed</source>
        <translation>
            <numerusform>케이블 %n개 모두 장애로 표시</numerusform>
        </translation>
    </message>
    <message>
        <source>Mark One Cable Failed</source>
        <translation>케이블 1개를 장애로 표시</translation>
    </message>
    <message>
        <source>Restore Cable</source>
        <translation>케이블 복구</translation>
    </message>
    <message numerus="yes">
        <source>Restore %n Cables</source>
        <translation>
            <numerusform>케이블 %n개 복구</numerusform>
        </translation>
    </message>
    <message>
        <source>Restore All</source>
        <translation>모두 복구</translation>
    </message>
    <message>
        <source>Collapsed View</source>
        <translation>축약 보기</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 %3, %4 ports: %5 used, %6 reserved, %7 free</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 %3, 포트 %4개: 사용 %5, 예약 %6, 여유 %7</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, SU %3</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2, SU %3</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n device(s)&lt;/b&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;장비 %n대&lt;/b&gt;</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;br&gt;… and %n more</source>
        <translation>
            <numerusform>&lt;br&gt;… 외 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>&lt;br&gt;&lt;font color=&apos;#d62728&apos;&gt;failed (what-if)&lt;/font&gt;</source>
        <translation>&lt;br&gt;&lt;font color=&apos;#d62728&apos;&gt;장애 (what-if)&lt;/font&gt;</translation>
    </message>
    <message>
        <source>&lt;br&gt;planned for growth, not installed</source>
        <translation>&lt;br&gt;증설 예정, 미설치</translation>
    </message>
    <message>
        <source>%1 &lt;-&gt; %2, %3 %4 m</source>
        <translation>%1 &lt;-&gt; %2, %3 %4 m</translation>
    </message>
    <message>
        <source> (failed)</source>
        <translation> (장애)</translation>
    </message>
    <message>
        <source> (planned)</source>
        <translation> (계획됨)</translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n cable(s)&lt;/b&gt;</source>
        <translation>
            <numerusform>&lt;b&gt;케이블 %n개&lt;/b&gt;</numerusform>
        </translation>
    </message>
    <message>
        <source>Pod %1</source>
        <translation>포드 %1</translation>
    </message>
    <message>
        <source>Spines</source>
        <translation>스파인</translation>
    </message>
    <message>
        <source>P%1 R%2</source>
        <translation>P%1 R%2</translation>
    </message>
    <message>
        <source>R%1</source>
        <translation>R%1</translation>
    </message>
    <message>
        <source>×%1</source>
        <translation>×%1</translation>
    </message>
    <message numerus="yes">
        <source>SU %1 · %n node(s)</source>
        <translation>
            <numerusform>SU %1 · 노드 %n대</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> + %n mgmt</source>
        <translation>
            <numerusform> + 관리 %n</numerusform>
        </translation>
    </message>
    <message>
        <source>SU %1</source>
        <translation>SU %1</translation>
    </message>
    <message numerus="yes">
        <source>Plane %1 · %n spine(s)</source>
        <translation>
            <numerusform>플레인 %1 · 스파인 %n대</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n spine(s)</source>
        <translation>
            <numerusform>스파인 %n대</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n core(s)</source>
        <translation>
            <numerusform>코어 %n대</numerusform>
        </translation>
    </message>
    <message>
        <source>Cores</source>
        <translation>코어</translation>
    </message>
</context>
<context>
    <name>railyard::app::WhatIfPanel</name>
    <message>
        <source>&lt;b&gt;What-if&lt;/b&gt;</source>
        <translation>&lt;b&gt;What-if 분석&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Capacity lost:</source>
        <translation>손실 용량:</translation>
    </message>
    <message>
        <source>Nodes cut off:</source>
        <translation>단절된 노드:</translation>
    </message>
    <message>
        <source>NIC ports lost:</source>
        <translation>손실된 NIC 포트:</translation>
    </message>
    <message>
        <source>Rail</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>Bandwidth left</source>
        <translation>남은 대역폭</translation>
    </message>
    <message>
        <source>Of normal</source>
        <translation>정상 대비</translation>
    </message>
    <message>
        <source>Restore All</source>
        <translation>모두 복구</translation>
    </message>
    <message>
        <source>Bring every failed switch and cable back</source>
        <translation>장애로 표시된 모든 스위치와 케이블을 복구합니다</translation>
    </message>
    <message>
        <source>Computing the impact…</source>
        <translation>영향을 계산하는 중…</translation>
    </message>
    <message>
        <source>Nothing failed. Right-click a switch or a cable in the topology and choose Mark Failed to see what losing it costs.</source>
        <translation>장애가 없습니다. 토폴로지에서 스위치나 케이블을 오른쪽 클릭하고 &quot;장애로 표시&quot;를 선택하면 손실 영향을 볼 수 있습니다.</translation>
    </message>
    <message>
        <source>No plan yet.</source>
        <translation>아직 플랜이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <source>Failed: %n switch(es)</source>
        <translation>
            <numerusform>장애: 스위치 %n대</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cable(s)</source>
        <translation>
            <numerusform>케이블 %n개</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2 % of the fabric&apos;s links)</source>
        <translation>%1 (패브릭 링크의 %2 %)</translation>
    </message>
    <message>
        <source>Rail %1</source>
        <translation>레일 %1</translation>
    </message>
    <message>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <source>%1 Tb/s</source>
        <translation>%1 Tb/s</translation>
    </message>
    <message>
        <source>%1 Gb/s</source>
        <translation>%1 Gb/s</translation>
    </message>
</context>
<context>
    <name>railyard::app::topo::RailLegend</name>
    <message>
        <source>Rails</source>
        <translation>레일</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>장애</translation>
    </message>
    <message>
        <source>planned</source>
        <translation>계획됨</translation>
    </message>
</context>
</TS>
